import { appendFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { ResultsStore } from "../records/index.ts";
import { handleApi } from "./api.ts";
import { RunCatalog } from "./run-catalog.ts";
import { ViewerData } from "./viewer-data.ts";
import type { JudgeRunDetail, MatrixRow } from "./api-types.ts";
import { JUDGE_ANSWER, JUDGE_SESSION, REJECTION } from "./fixtures/judge-session.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

let fixture: ViewerFixture;
let data: ViewerData;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 3,
    models: ["provider/alpha", "control/negative"],
    repetitions: 2,
  });
  data = new ViewerData(RunCatalog.open({ run: fixture.runDirectory, resultsRoot: "unused" }));
});
afterAll(() => data.close());

const get = (path: string, init?: RequestInit) => handleApi(data, new Request(`http://127.0.0.1/api/${path}`, init));

describe("the run's summary", () => {
  it("lists the run and its leaderboard: scores, bounds, CI, cost and time per model", async () => {
    expect(data.runs()).toMatchObject({
      defaultRunId: fixture.runId,
      runs: [{ id: fixture.runId, counts: { slots: 12, judged: 12, complete: true }, live: false }],
    });
    const overview = (await data.overview(fixture.runId))!;
    const [alpha, negative] = overview.leaderboard;
    expect(alpha).toMatchObject({
      model: "provider/alpha",
      control: false,
      score: { value: 100, lower: 100, upper: 100 },
      ci: { lower: 100, upper: 100 },
      judged: 6,
      slots: 6,
    });
    expect(negative).toMatchObject({
      model: "control/negative",
      control: true,
      unsandboxed: false,
      score: { value: 50 },
      verdict: null,
    });
    // The fixture's eval runs carry no isolation: recorded before containers, they ran on the host.
    expect(alpha!.unsandboxed).toBe(true);
    expect(alpha!.costUSD).toBeCloseTo(6 * 0.0125);
    expect(alpha!.medianElapsedMs).toBeGreaterThan(0);
    // The fixture's benchmark folder has no benchmark.ts: every number is there, the verdict says why it is not.
    expect(overview.verdict).toBeNull();
    expect(overview.verdictNote).toMatch(/could not be read/);
    expect(overview.criteria["eval-0001"]).toEqual(["tests_pass", "focused_fix"]);
  });

  it("pages the eval × model matrix with one square per repetition", () => {
    const page = data.matrix(fixture.runId, 1, 1)!;
    expect(page).toMatchObject({ total: 3, offset: 1, candidates: ["provider/alpha", "control/negative"] });
    expect(page.items.map((row) => row.evalId)).toEqual(["eval-0002"]);
    const [alpha, negative] = page.items[0]!.cells;
    expect(alpha).toMatchObject({ model: "provider/alpha", score: { value: 1 } });
    expect(negative!.score.value).toBe(0.5);
    expect(negative!.slots.map((slot) => [slot.repetition, slot.value, slot.state])).toEqual([
      [1, 0.5, "completed"],
      [2, 0.5, "completed"],
    ]);
  });

  it("answers one eval's row by its id, with no case list for an eval without cases", async () => {
    const response = await get(`runs/${fixture.runId}/matrix/eval-0002`);
    expect(response.status).toBe(200);
    const row = (await response.json()) as MatrixRow;
    expect(row).toEqual(data.matrix(fixture.runId, 1, 1)!.items[0]);
    expect(row.cases).toBeUndefined();
    expect(row.cells.map((cell) => cell.cases)).toEqual([undefined, undefined]);
  });

  it("filters, sorts and pages eval runs", () => {
    const page = data.evalRuns(fixture.runId, { offset: 0, limit: 2, model: "control/negative" })!;
    expect(page.total).toBe(6);
    expect(page.items.map((row) => row.model)).toEqual(["control/negative", "control/negative"]);
    const sorted = data.evalRuns(fixture.runId, { offset: 0, limit: 12, sort: "score", descending: true })!;
    expect(sorted.items[0]!.value).toBe(1);
    expect(sorted.items.at(-1)!.value).toBe(0.5);
  });
});

describe("the run's index (what a 100,000-run viewer keeps in memory)", () => {
  it("keeps a part of each record, and a page that shows one whole reads it from the store", async () => {
    const index = data.index(fixture.runId)!;
    const evalRun = fixture.evalRuns[0]!;
    const judgeRun = fixture.judgeRuns.find((run) => run.evalRunId === evalRun.id)!;
    // Neither the prompt, the full metrics nor a judgment's reasons stay in the index …
    expect(index.evalRuns.get(evalRun.id)).not.toHaveProperty("input.prompt");
    expect(index.evalRuns.get(evalRun.id)!.metrics).toEqual({
      cost: { usd: evalRun.metrics!.cost.usd },
      tools: { calls: evalRun.metrics!.tools.calls },
    });
    const indexedScores = index.judgeRuns.get(judgeRun.id)!.scores!;
    expect(Object.values(indexedScores).every((score) => Object.keys(score).join() === "value")).toBe(true);
    // A judge run shares its eval run's slot, and judge runs share one object per credit.
    expect(index.judgeRuns.get(judgeRun.id)!.slot).toBe(index.evalRuns.get(evalRun.id)!.slot);
    const credits = [...index.judgeRuns.values()].flatMap((run) => Object.values(run.scores ?? {}));
    expect(new Set(credits).size).toBe(new Set(credits.map((credit) => credit.value)).size);
    // … yet the pages show them.
    const detail = (await data.evalRun(fixture.runId, evalRun.id))!;
    expect(detail.evalRun.input.prompt).toBe(evalRun.input.prompt);
    expect(detail.metrics).toEqual(evalRun.metrics);
    const judged = (await data.judgeRun(fixture.runId, judgeRun.id))!;
    expect(judged.judgeRun.scores).toEqual(judgeRun.scores);
    expect(judged.integrityError).toBeNull();
  });

  it("answers an eval run's row in full, though the index reads it through from the records", async () => {
    const evalRun = fixture.evalRuns[0]!;
    const judgeRun = fixture.judgeRuns.find((run) => run.evalRunId === evalRun.id)!;
    const response = await get(`runs/${fixture.runId}/eval-runs?limit=1`);
    const { items } = (await response.json()) as { items: unknown[] };
    expect(items).toEqual([
      {
        id: evalRun.id,
        evalId: evalRun.slot.evalId,
        model: evalRun.slot.model,
        candidate: evalRun.slot.model,
        repetition: evalRun.slot.repetition,
        control: evalRun.control,
        state: evalRun.state,
        infrastructureError: false,
        outcome: "completed",
        error: null,
        startedAt: evalRun.startedAt,
        elapsedMs: evalRun.elapsedMs,
        costUSD: evalRun.metrics!.cost.usd,
        toolCalls: evalRun.metrics!.tools.calls,
        active: true,
        judgeRunId: judgeRun.id,
        judgeState: "completed",
        value: 1,
      },
    ]);
  });
});

describe("an eval run whose recording failed its check against the event stream", () => {
  it("is worded an integrity error in its row and listed, with its files and numbers, among the run's integrity problems", async () => {
    const root = await makeTempDir();
    const forged = await writeViewerFixture(root, { evals: 1, models: ["provider/alpha"], repetitions: 1 });
    const integrityError = {
      stream: "eval-runs/eval_forged/logs/opencode-events.jsonl",
      database: "eval-runs/eval_forged/evidence/native/opencode.db",
      mismatches: [{ sessionID: "ses_1", quantity: "cost" as const, stream: 0.15, database: 0.002 }],
    };
    const store = ResultsStore.open(forged.runDirectory);
    store.saveEvalRun({
      ...forged.evalRuns[0]!,
      id: "eval_forged",
      infrastructureError: true,
      integrityError,
      evidence: null,
      error: "Integrity error: …",
      integrity: undefined,
    });
    store.close();
    const viewer = new ViewerData(RunCatalog.open({ run: forged.runDirectory, resultsRoot: "unused" }));
    try {
      const row = viewer
        .evalRuns(forged.runId, { offset: 0, limit: 10 })!
        .items.find((item) => item.id === "eval_forged")!;
      expect(row).toMatchObject({ outcome: "integrity error", infrastructureError: true });
      const overview = (await viewer.overview(forged.runId))!;
      expect(overview.integrity).toEqual([
        {
          kind: "eval-run",
          id: "eval_forged",
          message: expect.stringContaining("cost $0.002000 recorded, $0.150000 seen"),
        },
      ]);
    } finally {
      viewer.close();
    }
  });
});

describe("an eval run's evidence", () => {
  it("reads the transcript, tool calls, diff and metrics through readRecording", async () => {
    const evalRun = fixture.evalRuns[0]!;
    const detail = (await data.evalRun(fixture.runId, evalRun.id))!;
    expect(detail.evidenceError).toBeNull();
    expect(detail.kind).toBe("constructed");
    expect(detail.tools.map((tool) => [tool.name, tool.status])).toEqual([
      ["bash", "completed"],
      ["edit", "completed"],
      ["bash", "error"],
    ]);
    expect(detail.diff.map((file) => [file.path, file.status])).toEqual([
      [".env", "added"],
      ["slugify.js", "modified"],
    ]);
    expect(detail.judgeRuns).toMatchObject([{ active: true, value: 1 }]);

    const transcript = (await data.transcript(fixture.runId, evalRun.id, { offset: 0, limit: 50 }))!;
    const tools = transcript.items.flatMap((message) => message.parts).filter((part) => part.kind === "tool");
    expect(tools.map((tool) => tool.kind === "tool" && tool.error)).toEqual([
      null,
      null,
      "cat: missing.txt: No such file or directory",
    ]);
    expect(await data.locate(fixture.runId, evalRun.id, "tool_3")).toMatchObject({
      sessionID: transcript.sessionID,
      index: 1,
      partID: "tool_3",
    });
  });

  it("reads a cited workspace file, and refuses paths that leave the workspace or the run", async () => {
    const evalRun = fixture.evalRuns[0]!;
    expect((await data.workspaceFile(fixture.runId, evalRun.id, "slugify.js", "final"))!.text).toContain("/g");
    expect(await data.workspaceFile(fixture.runId, evalRun.id, "nope.js", "final")).toBeNull();
    expect((await get(`runs/${fixture.runId}/eval-runs/${evalRun.id}/file?path=../../../store.db`)).status).toBe(404);
    expect(
      (await get(`runs/${fixture.runId}/judge-runs/${fixture.judgeRuns[0]!.id}/text?path=../../store.db`)).status,
    ).toBe(400);
  });
});

describe("a judge run", () => {
  it("gives each criterion's reason and citations, the returned JSON, source, logs and verification", async () => {
    const judgeRun = fixture.judgeRuns[2]!;
    const detail = (await data.judgeRun(fixture.runId, judgeRun.id))!;
    const focused = detail.criteria.find((criterion) => criterion.id === "focused_fix")!;
    expect(focused.reason).toMatch(/never re-ran/);
    expect(focused.citations.map((citation) => citation.kind)).toEqual([
      "tool",
      "file",
      "response",
      "metric",
      "unknown",
    ]);
    expect(detail.judgeRun.output).toMatchObject({ changedFiles: ["slugify.js"] });
    expect(detail.source).toContain("export default");
    expect(detail.logs.stdout).toContain("judging 2");
    expect(detail.verifications).toHaveLength(1);
    const [verification] = detail.verifications;
    expect(verification!.receipt?.result.commands[0]!.argv[0]).toBe("bun");
    expect(verification!.artifacts).toEqual([
      { path: `${verification!.directory}/artifacts/shot.png`, bytes: expect.any(Number), kind: "image" },
    ]);
    const image = await get(
      `runs/${fixture.runId}/judge-runs/${judgeRun.id}/raw?path=${encodeURIComponent(verification!.artifacts[0]!.path)}`,
    );
    expect(image.headers.get("content-type")).toBe("image/png");
  });
});

describe("a failed rubric judgment", () => {
  it("answers with the judge's own session and its metrics, and refuses a session database changed after it finished", async () => {
    const failed = await writeViewerFixture(await makeTempDir(), {
      evals: 1,
      models: ["provider/alpha"],
      repetitions: 2,
      failedJudge: "failed",
    });
    const viewer = new ViewerData(RunCatalog.open({ run: failed.runDirectory, resultsRoot: "unused" }));
    try {
      const judgeRun = failed.judgeRuns.find((run) => run.state === "failed")!;
      const answer = await handleApi(
        viewer,
        new Request(`http://127.0.0.1/api/runs/${failed.runId}/judge-runs/${judgeRun.id}`),
      );
      const detail = (await answer.json()) as JudgeRunDetail;
      expect(detail.session).toMatchObject({ error: null, rootSessionID: JUDGE_SESSION, response: JUDGE_ANSWER });
      expect(detail.session!.tools.find((tool) => tool.name === "judge_submit_judgment")).toMatchObject({
        status: "error",
        error: REJECTION,
      });
      // Measured from the judge's database as a candidate's are: three answered requests and one the provider rejected.
      expect(detail.judgeRun.metrics).toMatchObject({
        tokens: { input: 3_900, output: 160 },
        requests: { started: 4, succeeded: 3, failed: 1 },
        timing: { modelActiveMs: 1_100 },
      });

      await appendFile(join(failed.runDirectory, judgeRun.directory, "rubric", "opencode.db"), "forged");
      const changed = (await viewer.judgeRun(failed.runId, judgeRun.id))!;
      expect(changed.session).toMatchObject({
        error: expect.stringMatching(
          /^Integrity error: .*rubric\/opencode\.db was changed after the judge run finished/,
        ),
        transcripts: {},
      });
    } finally {
      await viewer.close();
    }
  });
});

describe("an eval run an earlyStop check stopped", () => {
  let early: ViewerFixture;
  let earlyData: ViewerData;
  beforeAll(async () => {
    early = await writeViewerFixture(await makeTempDir(), {
      evals: 1,
      models: ["control/negative"],
      repetitions: 1,
      decidedEarly: true,
    });
    earlyData = new ViewerData(RunCatalog.open({ run: early.runDirectory, resultsRoot: "unused" }));
  });
  afterAll(() => earlyData.close());

  it("gives the checks on the eval run and names the check that made the judgment", async () => {
    const detail = (await earlyData.evalRun(early.runId, early.evalRuns[0]!.id))!;
    expect(detail.evalRun.state).toBe("stopped");
    expect(detail.evalRun.earlyStop?.checks.map((check) => check.outcome)).toEqual(["continue", "decided"]);
    expect(detail.judgeRuns).toMatchObject([{ id: early.judgeRuns[0]!.id, active: true, decidedEarly: 2 }]);
    // The slot reads its statistics through from its records: its judging spend is its two checks', the deciding one
    // counted once, and the candidate and the judgment were each active once.
    const index = earlyData.index(early.runId)!;
    const [slot] = index.slots;
    expect(slot).toMatchObject({
      costUSD: early.evalRuns[0]!.metrics!.cost.usd,
      elapsedMs: early.evalRuns[0]!.elapsedMs,
      executed: true,
      fresh: false,
    });
    expect(slot!.judgeCostUSD).toBeCloseTo(0.004);
    expect(slot!.intervals).toHaveLength(2);
    expect(index.overview.leaderboard[0]!.judgeCostUSD).toBeCloseTo(0.004);
  });

  it("lists and serves the judgment's rubric archive, never the snapshot it judged as loose files", async () => {
    const judgeRun = early.judgeRuns[0]!;
    const detail = (await earlyData.judgeRun(early.runId, judgeRun.id))!;
    expect(detail.judgeRun.decidedEarly).toMatchObject({ check: 2 });
    expect(detail.files.map((file) => file.path)).toEqual(["rubric/job.json", "rubric/submission.json"]);
    expect(detail.rubricSubmission).toMatchObject({ scores: { focused_fix: { value: 0 } } });
    expect((await earlyData.judgeRunText(early.runId, judgeRun.id, "rubric/submission.json"))!.text).toContain(
      "focused_fix",
    );
    expect(await earlyData.judgeRunText(early.runId, judgeRun.id, "evidence/manifest.json")).toBeNull();
    expect(earlyData.judgeRunFilePath(early.runId, judgeRun.id, "./evidence/manifest.json")).toBeNull();
  });
});

describe("the HTTP boundary", () => {
  it("validates parameters and answers 400, 404 and 405 with a reason", async () => {
    expect((await get(`runs/${fixture.runId}/eval-runs?limit=0`)).status).toBe(400);
    expect(await (await get(`runs/${fixture.runId}/eval-runs?state=bogus`)).json()).toMatchObject({
      error: expect.stringMatching(/state/),
    });
    expect((await get("runs/no-such-run")).status).toBe(404);
    expect((await get(`runs/${encodeURIComponent("../x")}`)).status).toBe(400);
    expect((await get("runs", { method: "POST" })).status).toBe(405);
    const page = (await (await get(`runs/${fixture.runId}/eval-runs?offset=10&limit=5`)).json()) as {
      total: number;
      items: unknown[];
    };
    expect(page).toMatchObject({ total: 12, offset: 10 });
    expect(page.items).toHaveLength(2);
    expect(basename(fixture.runDirectory)).toBe(fixture.runId);
  });

  it("says in words what it did not find: the outermost missing thing, never an /api/ path", async () => {
    const run = fixture.runId;
    const evalRun = fixture.evalRuns[0]!.id;
    const judgeRun = fixture.judgeRuns[0]!.id;
    const notFound = async (path: string) => {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      const { error } = (await response.json()) as { error: string };
      expect(error).not.toMatch(/\/api\//);
      return error;
    };
    expect(await notFound("runs/no-such-run")).toBe("Not found: run no-such-run.");
    expect(await notFound(`runs/no-such-run/eval-runs/${evalRun}/log?path=logs/x.log`)).toBe(
      "Not found: run no-such-run.",
    );
    expect(await notFound(`runs/${run}/eval-runs/eval_nope`)).toBe(`Not found: eval run eval_nope (run ${run}).`);
    expect(await notFound(`runs/${run}/matrix/eval-nope`)).toBe(`Not found: the eval eval-nope of run ${run}.`);
    expect(await notFound("runs/no-such-run/matrix/eval-0001")).toBe("Not found: run no-such-run.");
    expect(await notFound(`runs/${run}/eval-runs/eval_nope/file?path=slugify.js`)).toBe(
      `Not found: eval run eval_nope (run ${run}).`,
    );
    expect(await notFound(`runs/${run}/eval-runs/${evalRun}/file?path=nope.js&revision=initial`)).toBe(
      `Not found: the file nope.js of the initial workspace of eval run ${evalRun} (run ${run}).`,
    );
    expect(await notFound(`runs/${run}/eval-runs/${evalRun}/log?path=logs/nope.log`)).toBe(
      `Not found: the log logs/nope.log of eval run ${evalRun} (run ${run}).`,
    );
    expect(await notFound(`runs/${run}/eval-runs/${evalRun}/transcript?session=ses_nope`)).toBe(
      `Not found: the session ses_nope of eval run ${evalRun} (run ${run}).`,
    );
    expect(await notFound(`runs/${run}/judge-runs/judge_nope`)).toBe(`Not found: judge run judge_nope (run ${run}).`);
    expect(await notFound(`runs/${run}/judge-runs/${judgeRun}/text?path=code/nope.log`)).toBe(
      `Not found: the file code/nope.log of judge run ${judgeRun} (run ${run}).`,
    );
    expect(await notFound(`compare?a=no-such-run&b=${run}`)).toBe("Not found: run no-such-run.");
  });
});
