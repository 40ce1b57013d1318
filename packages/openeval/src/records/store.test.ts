import { Database } from "bun:sqlite";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { EvalRunSchema, type EvalRun, type JudgeRun } from "./schema.ts";
import { ResultsStore } from "./store.ts";

function evalRun(overrides: Partial<EvalRun> = {}): EvalRun {
  return {
    id: "eval_1",
    runId: "run_1",
    slot: { evalId: "e", model: "control/positive", repetition: 1 },
    control: true,
    state: "running",
    infrastructureError: false,
    error: null,
    startedAt: "2026-11-29T00:00:00.000Z",
    completedAt: null,
    elapsedMs: null,
    input: { candidateFingerprint: "f", prompt: "p", timeoutMs: 1000, maxCostUSD: null, opencodeVersion: "1.18.33" },
    evidence: null,
    metrics: null,
    ...overrides,
  };
}

function judgeRun(overrides: Partial<JudgeRun> = {}): JudgeRun {
  return {
    id: "judge_1", runId: "run_1", evalRunId: "eval_1", slot: { evalId: "e", model: "control/positive", repetition: 1 }, kind: "code",
    state: "running", judgeFingerprint: "j", startedAt: "2026-11-29T00:00:00.000Z", completedAt: null, elapsedMs: null,
    scores: null, unscored: false, error: null, directory: "judge-runs/judge_1", ...overrides,
  };
}

describe("ResultsStore", () => {
  it("updates a running eval run, then refuses any change or deletion once it is finalized", async () => {
    const directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.saveEvalRun(evalRun());
    store.saveEvalRun(evalRun({ state: "completed", completedAt: "2026-11-29T00:00:01.000Z", elapsedMs: 1000 }));
    expect(store.evalRun("eval_1")?.state).toBe("completed");
    expect(() => store.saveEvalRun(evalRun({ state: "failed" }))).toThrow(/finalized eval_runs rows are immutable/);
    store.close();
    // Not just the API: the database itself refuses, whoever writes to it.
    const raw = new Database(join(directory, "store.db"));
    expect(() => raw.run("UPDATE eval_runs SET value = '{}' WHERE id = 'eval_1'")).toThrow(/immutable/);
    expect(() => raw.run("DELETE FROM eval_runs")).toThrow(/never deleted/);
    raw.close();
    expect(ResultsStore.open(directory).evalRun("eval_1")?.elapsedMs).toBe(1000);
  });

  it("keeps judge runs immutable once finalized, and lists them per eval run", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    store.saveEvalRun(evalRun());
    store.saveJudgeRun(judgeRun());
    store.saveJudgeRun(judgeRun({ state: "completed", scores: { ok: { value: 1, source: "judge.ts" } } }));
    expect(() => store.saveJudgeRun(judgeRun({ state: "failed" }))).toThrow(/immutable/);
    expect(store.judgeRuns("eval_1").map((run) => run.scores)).toEqual([{ ok: { value: 1, source: "judge.ts" } }]);
    expect(store.judgeRuns("other")).toEqual([]);
    expect(store.evalRunModels()).toEqual(["control/positive"]);
  });

  it("lists eval and judge runs in the order they were inserted, even when the clock stepped back between them", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    const clock = vi.spyOn(Date, "now");
    try {
      clock.mockReturnValue(2_000);
      store.saveEvalRun(evalRun({ id: "eval_1" }));
      store.saveJudgeRun(judgeRun({ id: "judge_1" }));
      clock.mockReturnValue(1_000);
      store.saveEvalRun(evalRun({ id: "eval_2" }));
      store.saveJudgeRun(judgeRun({ id: "judge_2" }));
      // An update keeps the row's place.
      store.saveEvalRun(evalRun({ id: "eval_1", state: "completed", completedAt: "2026-11-29T00:00:01.000Z", elapsedMs: 1000 }));
    } finally {
      clock.mockRestore();
    }
    expect(store.evalRuns().map((run) => run.id)).toEqual(["eval_1", "eval_2"]);
    expect(store.judgeRuns().map((run) => run.id)).toEqual(["judge_1", "judge_2"]);
    expect(store.judgeRuns("eval_1").map((run) => run.id)).toEqual(["judge_1", "judge_2"]);
  });

  it("records events in order and a heartbeat", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    store.appendEvent("a", { n: 1 });
    store.appendEvent("b", { n: 2 });
    expect(store.events().map((event) => [event.sequence, event.type, event.value])).toEqual([[1, "a", { n: 1 }], [2, "b", { n: 2 }]]);
    store.beat(1234);
    expect(store.heartbeat()?.pid).toBe(1234);
  });

  it("says what to do for a missing store or another schema", async () => {
    const empty = await makeTempDir();
    expect(() => ResultsStore.open(empty)).toThrow(/No results store at .*store.db/);
    const other = await makeTempDir();
    const db = new Database(join(other, "store.db"));
    db.run("PRAGMA user_version = 99");
    db.close();
    expect(() => ResultsStore.open(other)).toThrow(/has schema 99; this openeval reads schemas 1 and 2. Start a new run with --new/);
  });

  it("reads a schema-1 store (no stored-text seals) read-only as it is, and upgrades it when opened to write", async () => {
    const directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.saveEvalRun(evalRun({ state: "completed", completedAt: "2026-11-29T00:00:01.000Z", elapsedMs: 1000 }));
    store.close();
    const raw = new Database(join(directory, "store.db"));
    raw.run("ALTER TABLE eval_runs DROP COLUMN value_sha256; ALTER TABLE judge_runs DROP COLUMN value_sha256; ALTER TABLE judge_runs DROP COLUMN chain_sha256; PRAGMA user_version = 1");
    raw.close();
    const schema = vi.spyOn(EvalRunSchema, "safeParse");
    try {
      const readonly = ResultsStore.open(directory, { readonly: true });
      expect(readonly.evalRuns().map((run) => run.elapsedMs)).toEqual([1000]);
      expect(schema).toHaveBeenCalledTimes(1);
      readonly.close();
      const upgraded = ResultsStore.open(directory);
      upgraded.saveEvalRun(evalRun({ id: "eval_2", state: "completed", completedAt: "2026-11-29T00:00:02.000Z", elapsedMs: 2000 }));
      schema.mockClear();
      // The old row has no seal and goes through the schema; the new one is read by its seal.
      expect(upgraded.evalRuns().map((run) => run.elapsedMs)).toEqual([1000, 2000]);
      expect(schema).toHaveBeenCalledTimes(1);
      upgraded.close();
    } finally {
      schema.mockRestore();
    }
    const check = new Database(join(directory, "store.db"), { readonly: true });
    expect(check.query("PRAGMA user_version").get()).toEqual({ user_version: 2 });
    expect(check.query("SELECT id, value_sha256 IS NOT NULL AS sealed FROM eval_runs ORDER BY rowid").all()).toEqual([{ id: "eval_1", sealed: 0 }, { id: "eval_2", sealed: 1 }]);
    check.close();
  });

  it("refuses to finalize a row that does not match its schema, saying it is a bug", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    const broken = { ...evalRun({ state: "completed" }), elapsedMs: "soon" } as unknown as EvalRun;
    expect(() => store.saveEvalRun(broken)).toThrow(/openeval tried to record a row that does not match its own format \(a bug; report it\).*elapsedMs/s);
    expect(store.evalRuns()).toEqual([]);
  });
});
