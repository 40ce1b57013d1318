// How a finished judge session's files become the rubric outcome, including the silent failures OpenCode was seen to have.
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistantMessage, part, writeNativeDatabase } from "../../recording/fixtures/native-database.ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OpenCodeOutcome } from "../../opencode/index.ts";
import { appendCallLog } from "./call-log.ts";
import { readJudgment, type JudgeRunFiles } from "./read-judgment.ts";

let dir: string;
let files: JudgeRunFiles;
const criteria = ["correct"];
const judgment = { scores: { correct: { value: true, reason: "Right.", evidence: [{ kind: "response" }] } } };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "openeval-read-judgment-"));
  files = {
    submission: join(dir, "submission.json"),
    log: join(dir, "log.jsonl"),
    stderr: join(dir, "stderr.log"),
    database: join(dir, "opencode.db"),
  };
  await writeFile(files.stderr, "level=INFO message=init\n");
  appendCallLog(files.log, { type: "ready", at: "t", pid: 1 });
  writeSessionAgent("judge");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function outcome(state: OpenCodeOutcome["state"] = "completed", error?: string): OpenCodeOutcome {
  return {
    state,
    infrastructureError: false,
    setupError: false,
    waitedForFirstAnswer: false,
    stepErrors: [],
    retries: 0,
    exitCode: 0,
    startedAt: "s",
    completedAt: "c",
    elapsedMs: 1,
    sessionID: "ses_1",
    costUSD: 0,
    stream: { steps: [], tools: [] },
    killed: false,
    databasePath: "/x",
    confinement: "proc-walk",
    ...(error ? { error } : {}),
  };
}

function writeSessionAgent(agent: string): void {
  const db = new Database(files.database!, { create: true });
  db.run("DROP TABLE IF EXISTS session");
  db.run("CREATE TABLE session (id TEXT, parent_id TEXT, agent TEXT, time_created INTEGER)");
  db.run("INSERT INTO session VALUES ('ses_1', NULL, ?, 1)", [agent]);
  db.close();
}

describe("readJudgment", () => {
  it("turns the accepted submission into judge.md scores", async () => {
    await writeFile(files.submission, JSON.stringify(judgment));
    expect(readJudgment(files, outcome(), criteria).error).toContain(
      "the tool server never accepted a judgment in this run",
    );
    appendCallLog(files.log, {
      type: "call",
      at: "t",
      tool: "submit_judgment",
      arguments: judgment,
      accepted: true,
      elapsedMs: 1,
    });
    expect(readJudgment(files, outcome(), criteria)).toEqual({
      state: "completed",
      scores: { correct: { value: 1, source: "judge.md", reason: "Right.", evidence: [{ kind: "response" }] } },
    });
  });

  it("voids a submission when the session did not run as the judge agent", async () => {
    await writeFile(files.submission, JSON.stringify(judgment));
    writeSessionAgent("build");
    expect(readJudgment(files, outcome(), criteria)).toMatchObject({
      state: "failed",
      scores: null,
      error: expect.stringContaining('ran as agent "build"'),
    });
  });

  it("fails clearly when OpenCode reports the tool server unavailable", async () => {
    await writeFile(files.stderr, 'level=WARN message="server unavailable" key=judge type=local status=failed\n');
    expect(readJudgment(files, outcome(), criteria).error).toContain("could not start the judge's tool server");
  });

  it("reports the tool server's own fatal error", () => {
    appendCallLog(files.log, { type: "fatal", at: "t", error: "manifest hashes to abc" });
    expect(readJudgment(files, outcome(), criteria).error).toContain(
      "could not open the recording: manifest hashes to abc",
    );
  });

  it("without a submission: failed with the last tool errors, or timed_out when the session hit its limit", () => {
    appendCallLog(files.log, {
      type: "call",
      at: "t",
      tool: "submit_judgment",
      arguments: {},
      accepted: false,
      error: "submit_judgment rejected: missing criteria: correct",
      elapsedMs: 1,
    });
    const failed = readJudgment(files, outcome(), criteria);
    expect(failed).toMatchObject({ state: "failed", scores: null });
    expect(failed.error).toMatch(
      /^the judge submitted no valid judgment\. The session ended completed\. Last tool errors:\nsubmit_judgment rejected: missing criteria: correct$/,
    );
    const timedOut = readJudgment(
      files,
      outcome("timed_out", "Wall-clock timeout of 1000 ms reached; the whole process tree was killed."),
      criteria,
    );
    expect(timedOut).toMatchObject({ state: "timed_out", scores: null });
    // The state in words, and the session's message ends its sentence once.
    expect(timedOut.error).toContain(
      "The session ended timed out: Wall-clock timeout of 1000 ms reached; the whole process tree was killed. Last tool errors:",
    );
    // What the judge answered instead of submitting is quoted, cut short.
    const said = { id: "msg_1", sessionID: "ses_1", created: 2, completed: 3 };
    rmSync(files.database!);
    writeNativeDatabase(files.database!, {
      sessions: [{ id: "ses_1", created: 1 }],
      messages: [assistantMessage(said)],
      parts: [
        part("prt_1", assistantMessage(said), 2, {
          type: "text",
          text: `The candidate did well.\n\n${"x".repeat(400)}`,
        }),
      ],
    });
    expect(readJudgment(files, outcome(), criteria).error).toContain(
      `The session ended completed. It answered instead: "The candidate did well. ${"x".repeat(276)}…". Last tool errors:`,
    );
  });
});
