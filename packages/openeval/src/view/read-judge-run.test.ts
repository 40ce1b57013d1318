import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import type { JudgeRun } from "../records/index.ts";
import {
  JUDGE_ANSWER,
  JUDGE_SESSION,
  PROVIDER_REJECTION,
  REJECTION,
  writeJudgeSession,
} from "./fixtures/judge-session.ts";
import { readJudgeRunDetail } from "./read-judge-run.ts";

const judgeRun: JudgeRun = {
  id: "judge_1",
  runId: "r",
  evalRunId: "eval_1",
  slot: { evalId: "e", model: "p/m", repetition: 1, variant: "current" },
  kind: "hybrid",
  state: "failed",
  judgeFingerprint: "f",
  startedAt: "2026-12-01T10:00:00.000Z",
  completedAt: "2026-12-01T10:00:01.000Z",
  elapsedMs: 1000,
  scores: null,
  unscored: false,
  error: "the judge submitted no valid judgment.",
  directory: "judge-runs/judge_1",
};

describe("readJudgeRunDetail", () => {
  it("shows a failed hybrid judgment's kept judge.ts scores, marked as not counted", async () => {
    const kept = { ...judgeRun, keptScores: { tests: { value: 1, source: "judge.ts" as const, reason: "All pass." } } };
    const detail = await readJudgeRunDetail("/nonexistent-run", kept, null);
    expect(detail.keptOnly).toBe(true);
    expect(detail.criteria).toEqual([
      {
        id: "tests",
        value: 1,
        source: "judge.ts",
        reason: "All pass.",
        citations: [],
        measurements: null,
        ceiling: null,
        review: null,
      },
    ]);
    const nothingKept = await readJudgeRunDetail("/nonexistent-run", judgeRun, null);
    expect(nothingKept).toMatchObject({ keptOnly: false, criteria: [] });
  });
});

describe("a criterion capped at the reference fix", () => {
  it("shows the cap and the judge's own score beside the capped value", async () => {
    const ceiling = { kind: "reference_fix" as const, value: 0.4, judged: 1 };
    const capped = {
      ...judgeRun,
      state: "completed" as const,
      error: null,
      scores: { fixed: { value: 0.4, source: "judge.md" as const, reason: "Fixed.", ceiling } },
    };
    const detail = await readJudgeRunDetail("/nonexistent-run", capped, null);
    expect(detail.criteria).toEqual([expect.objectContaining({ id: "fixed", value: 0.4, ceiling })]);
  });
});

describe("the rubric judge's own session", () => {
  async function failedJudgeRun() {
    const directory = await makeTempDir();
    await writeJudgeSession(join(directory, judgeRun.directory, "rubric"));
    return directory;
  }

  it("is shown like a candidate's transcript: the prompt, its tool calls, the rejected submission and why, its answer", async () => {
    const detail = await readJudgeRunDetail(await failedJudgeRun(), judgeRun, null);
    const session = detail.session!;
    expect(session).toMatchObject({ error: null, rootSessionID: JUDGE_SESSION, response: JUDGE_ANSWER });
    expect(session.sessions).toEqual([expect.objectContaining({ id: JUDGE_SESSION, parentID: null, messages: 5 })]);
    expect(session.tools.map((tool) => [tool.name, tool.status, tool.error])).toEqual([
      ["judge_evidence", "completed", null],
      ["judge_submit_judgment", "error", REJECTION],
    ]);
    const messages = session.transcripts[JUDGE_SESSION]!;
    expect(messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "assistant",
      "assistant",
      "assistant",
    ]);
    const submission = messages[2]!.parts.find((part) => part.kind === "tool");
    expect(submission).toMatchObject({
      tool: "judge_submit_judgment",
      status: "error",
      error: REJECTION,
      input: { scores: { focused_fix: { value: 1.5 } } },
    });
    // A request the provider rejected keeps no error in the database: the session file's stream error names it.
    expect(messages[3]!.error).toBe(`APIError: ${PROVIDER_REJECTION}`);
  });

  it("is not read when its database changed after the judge run finished, and is absent for a code judgment", async () => {
    const changed = await readJudgeRunDetail(await failedJudgeRun(), judgeRun, null, (path) =>
      path === "rubric/opencode.db" ? "rubric/opencode.db was changed" : null,
    );
    expect(changed.session).toEqual({
      error: "Integrity error: rubric/opencode.db was changed",
      rootSessionID: null,
      sessions: [],
      tools: [],
      response: "",
      transcripts: {},
    });
    expect((await readJudgeRunDetail(await makeTempDir(), { ...judgeRun, kind: "code" }, null)).session).toBeNull();
  });

  it("says so when OpenCode never started a session, while the judge still runs, and when its database is unreadable", async () => {
    const directory = await makeTempDir();
    await writeTree({ [`${judgeRun.directory}/rubric/job.json`]: "{}" }, directory);
    expect((await readJudgeRunDetail(directory, judgeRun, null)).session?.error).toBe(
      "OpenCode recorded no session for the judge: it never started one (see rubric/opencode-stderr.log).",
    );
    expect((await readJudgeRunDetail(directory, { ...judgeRun, state: "running" }, null)).session?.error).toBe(
      "The judge is still running: its session is shown when it finishes.",
    );
    await writeTree({ [`${judgeRun.directory}/rubric/opencode.db`]: "not a database" }, directory);
    expect((await readJudgeRunDetail(directory, judgeRun, null)).session?.error).toMatch(
      /^The judge's session could not be read: .+/,
    );
  });
});
