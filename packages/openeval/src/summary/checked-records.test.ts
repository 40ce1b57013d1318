import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { ResultsStore, STORE_FILE, type EvalRun, type JudgeRun } from "../records/index.ts";
import { sha256 } from "../util/hash.ts";
import {
  readCheckedRecords,
  readCheckedRecordsSince,
  readPlanRecords,
  type CheckedRecords,
  type PlanRecords,
} from "./checked-records.ts";

const MANIFEST = '{"format":"openeval.evidence"}\n';

function evalRun(id: string, repetition: number): EvalRun {
  mkdirSync(join(directory, "eval-runs", id, "evidence"), { recursive: true });
  writeFileSync(join(directory, "eval-runs", id, "evidence", "manifest.json"), MANIFEST);
  return {
    id,
    runId: "r",
    slot: { evalId: "e", model: "p/m", variant: "current", repetition },
    control: false,
    state: "completed",
    infrastructureError: false,
    error: null,
    startedAt: "2026-12-01T00:00:00.000Z",
    completedAt: "2026-12-01T00:01:00.000Z",
    elapsedMs: 60_000,
    input: { candidateFingerprint: "c", prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "x" },
    evidence: { directory: `eval-runs/${id}/evidence`, hash: sha256(MANIFEST) },
    metrics: null,
  };
}

function judgeRun(id: string, of: EvalRun): JudgeRun {
  mkdirSync(join(directory, "judge-runs", id), { recursive: true });
  return {
    id,
    runId: "r",
    evalRunId: of.id,
    slot: of.slot,
    kind: "code",
    state: "completed",
    judgeFingerprint: "j",
    startedAt: "2026-12-01T00:01:00.000Z",
    completedAt: "2026-12-01T00:01:01.000Z",
    elapsedMs: 1000,
    scores: { ok: { value: 1, source: "judge.ts" } },
    unscored: false,
    error: null,
    directory: `judge-runs/${id}`,
  };
}

const ids = (records: CheckedRecords | PlanRecords) => ({
  evalRuns: records.evalRuns.map((run) => run.id),
  judgeRuns: records.judgeRuns.map((run) => run.id),
  integrity: records.integrity.map((problem) => problem.id),
});

let directory: string;

describe("readCheckedRecordsSince (the runner's summary reads only the rows it wrote)", () => {
  it("gives what reading every row again gives: new eval and judge runs, new judgments of old eval runs, and what fails the check", async () => {
    directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.writeRun({
      id: "r",
      name: "b",
      benchmarkDirectory: directory,
      createdAt: "2026-12-01T00:00:00.000Z",
      opencodeVersion: "x",
      models: ["p/m"],
      repetitions: 3,
      evals: ["e"],
    });
    const first = evalRun("eval_1", 1);
    store.saveEvalRun(first);
    store.saveJudgeRun(judgeRun("judge_1", first));
    const earlier = readCheckedRecords(store);

    // This run's work: a rejudge of the old eval run, a new eval run and its judgment, one still running.
    store.saveJudgeRun(judgeRun("judge_2", first));
    const second = evalRun("eval_2", 2);
    store.saveEvalRun(second);
    store.saveJudgeRun(judgeRun("judge_3", second));
    store.saveEvalRun({
      ...evalRun("eval_3", 3),
      state: "running",
      completedAt: null,
      elapsedMs: null,
      evidence: null,
    });
    store.close();
    // And a forged judge row, inserted by hand: reported, and left out as a full read leaves it out.
    const db = new Database(join(directory, STORE_FILE));
    const forged = { ...judgeRun("judge_forged", second), integrity: "0".repeat(64) };
    db.query("INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, 'completed', ?, ?)").run(
      forged.id,
      second.id,
      JSON.stringify(forged),
      Date.now(),
    );
    db.close();

    const reopened = ResultsStore.open(directory);
    const since = readCheckedRecordsSince(reopened, earlier);
    expect(ids(since)).toEqual(ids(readCheckedRecords(reopened)));
    expect(ids(since)).toEqual({
      evalRuns: ["eval_1", "eval_2", "eval_3"],
      judgeRuns: ["judge_1", "judge_2", "judge_3"],
      integrity: ["judge_forged"],
    });
    expect(since.through).toEqual(reopened.marks());
    // Nothing new: the same records again.
    expect(ids(readCheckedRecordsSince(reopened, since))).toEqual(ids(since));
    reopened.close();
  });

  it("reads everything again when a row of the earlier read was still running: it may have been finalized in place", async () => {
    directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.writeRun({
      id: "r",
      name: "b",
      benchmarkDirectory: directory,
      createdAt: "2026-12-01T00:00:00.000Z",
      opencodeVersion: "x",
      models: ["p/m"],
      repetitions: 1,
      evals: ["e"],
    });
    const running = evalRun("eval_1", 1);
    store.saveEvalRun({ ...running, state: "running", completedAt: null, elapsedMs: null });
    const earlier = readCheckedRecords(store);
    store.saveEvalRun(running);
    expect(readCheckedRecordsSince(store, earlier).evalRuns.map((run) => [run.id, run.state])).toEqual([
      ["eval_1", "completed"],
    ]);
    store.close();
  });
});

describe("readCheckedRecords with a keeping (the viewer's index keeps part of each record)", () => {
  it("checks each record whole and keeps only what the keeping returns, leaving out what fails the check", async () => {
    directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.writeRun({
      id: "r",
      name: "b",
      benchmarkDirectory: directory,
      createdAt: "2026-12-01T00:00:00.000Z",
      opencodeVersion: "x",
      models: ["p/m"],
      repetitions: 2,
      evals: ["e"],
    });
    const first = evalRun("eval_1", 1);
    store.saveEvalRun(first);
    store.saveJudgeRun(judgeRun("judge_1", first));
    store.close();
    // A forged judge row: found by the check of the whole record, which the keeping below could not make.
    const db = new Database(join(directory, STORE_FILE));
    const forged = { ...judgeRun("judge_forged", first), integrity: "0".repeat(64) };
    db.query("INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, 'completed', ?, ?)").run(
      forged.id,
      first.id,
      JSON.stringify(forged),
      Date.now(),
    );
    db.close();

    const reopened = ResultsStore.open(directory, { readonly: true });
    const kept = readCheckedRecords(reopened, {
      evalRun: ({ id, slot, state, infrastructureError, error, input, metrics, evidence }) => ({
        id,
        slot,
        state,
        infrastructureError,
        error,
        input: { candidateFingerprint: input.candidateFingerprint },
        metrics,
        evidence,
      }),
      judgeRun: ({ id, evalRunId, state, judgeFingerprint, error }) => ({
        id,
        evalRunId,
        state,
        judgeFingerprint,
        error,
      }),
    });
    expect(ids(kept)).toEqual(ids(readCheckedRecords(reopened)));
    expect(ids(kept)).toEqual({ evalRuns: ["eval_1"], judgeRuns: ["judge_1"], integrity: ["judge_forged"] });
    expect(kept.evalRuns[0]).not.toHaveProperty("input.prompt");
    expect(Object.keys(kept.judgeRuns[0]!).sort()).toEqual(["error", "evalRunId", "id", "judgeFingerprint", "state"]);
    reopened.close();
  });
});

describe("readPlanRecords (a plan reads heads)", () => {
  /** A run with two judged eval runs, a forged judge row inserted by hand, and eval_1's recording and judge files edited since. */
  async function tamperedRun(): Promise<ResultsStore> {
    directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.writeRun({
      id: "r",
      name: "b",
      benchmarkDirectory: directory,
      createdAt: "2026-12-01T00:00:00.000Z",
      opencodeVersion: "x",
      models: ["p/m"],
      repetitions: 2,
      evals: ["e"],
    });
    const [first, second] = [evalRun("eval_1", 1), evalRun("eval_2", 2)];
    for (const [index, run] of [first, second].entries()) {
      store.saveEvalRun(run);
      store.saveJudgeRun(judgeRun(`judge_${index + 1}`, run));
    }
    store.close();
    const db = new Database(join(directory, STORE_FILE));
    const forged = { ...judgeRun("judge_forged", second), integrity: "0".repeat(64) };
    db.query("INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, 'completed', ?, ?)").run(
      forged.id,
      second.id,
      JSON.stringify(forged),
      Date.now(),
    );
    db.close();
    writeFileSync(join(directory, "eval-runs", "eval_1", "evidence", "manifest.json"), `${MANIFEST} `);
    writeFileSync(join(directory, "judge-runs", "judge_1", "files.json"), "{}");
    return ResultsStore.open(directory);
  }

  it("checks the rows the store did not seal, and leaves recordings and judge files to where they are used", async () => {
    const store = await tamperedRun();
    const plan = readPlanRecords(store);
    expect(ids(plan)).toEqual({
      evalRuns: ["eval_1", "eval_2"],
      judgeRuns: ["judge_1", "judge_2"],
      integrity: ["judge_forged"],
    });
    expect(plan.integrity[0]!.message).toBe("judge run judge_forged: its files.json is missing");
    expect(plan.judgeRuns[0]).toEqual({
      id: "judge_1",
      evalRunId: "eval_1",
      state: "completed",
      judgeFingerprint: "j",
      error: null,
    });
    // The full check, which the summary, the viewer and verify make, still finds the edited files.
    expect(ids(readCheckedRecords(store))).toEqual({
      evalRuns: ["eval_1", "eval_2"],
      judgeRuns: ["judge_2"],
      integrity: ["eval_1", "judge_1", "judge_forged"],
    });
    store.close();
  });

  it("checks every row in full once a trigger that keeps finalized rows immutable is gone", async () => {
    const store = await tamperedRun();
    store.close();
    const db = new Database(join(directory, STORE_FILE));
    db.run("DROP TRIGGER judge_runs_finalized_immutable");
    db.close();
    const reopened = ResultsStore.open(directory, { readonly: true });
    expect(ids(readPlanRecords(reopened))).toEqual(ids(readCheckedRecords(reopened)));
    expect(ids(readPlanRecords(reopened)).integrity).toEqual(["eval_1", "judge_1", "judge_forged"]);
    reopened.close();
  });
});
