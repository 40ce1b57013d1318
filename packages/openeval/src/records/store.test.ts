import { Database } from "bun:sqlite";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { EvalRunSchema, type EvalRun, type JudgeRun } from "./schema.ts";
import { EVAL_RUN_HEAD_COLUMNS, generatedColumns, JUDGE_RUN_HEAD_COLUMNS } from "./run-heads.ts";
import { ResultsStore } from "./store.ts";

function evalRun(overrides: Partial<EvalRun> = {}): EvalRun {
  return {
    id: "eval_1",
    runId: "run_1",
    slot: { evalId: "e", model: "control/positive", variant: "current", repetition: 1 },
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
    id: "judge_1",
    runId: "run_1",
    evalRunId: "eval_1",
    slot: { evalId: "e", model: "control/positive", variant: "current", repetition: 1 },
    kind: "code",
    state: "running",
    judgeFingerprint: "j",
    startedAt: "2026-11-29T00:00:00.000Z",
    completedAt: null,
    elapsedMs: null,
    scores: null,
    unscored: false,
    error: null,
    directory: "judge-runs/judge_1",
    ...overrides,
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
      store.saveEvalRun(
        evalRun({ id: "eval_1", state: "completed", completedAt: "2026-11-29T00:00:01.000Z", elapsedMs: 1000 }),
      );
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
    expect(store.eventsOf(["b", "a"]).map((event) => [event.sequence, event.type, event.value])).toEqual([
      [1, "a", { n: 1 }],
      [2, "b", { n: 2 }],
    ]);
    expect(store.eventsOf(["b"], "$.n").map((event) => event.value)).toEqual([{}]);
    store.beat(1234);
    expect(store.heartbeat()?.pid).toBe(1234);
  });

  it("waits for a store another process holds locked for a moment, to write or to read, instead of failing", async () => {
    const directory = await makeTempDir();
    ResultsStore.open(directory, { create: true }).close();
    for (const readonly of [false, true]) {
      // Another runner or viewer opening the store at the same instant holds its lock like this, briefly.
      const holder = Bun.spawn(
        [
          process.execPath,
          "-e",
          `const { Database } = require("bun:sqlite");
const db = new Database(${JSON.stringify(join(directory, "store.db"))});
db.run("PRAGMA locking_mode = EXCLUSIVE"); db.run("BEGIN EXCLUSIVE"); console.log("held");
setTimeout(() => db.close(), 400);`,
        ],
        { stdout: "pipe" },
      );
      const reader = holder.stdout.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("held");
      const store = ResultsStore.open(directory, { readonly });
      expect(store.heartbeat()).toBeNull();
      store.close();
      await holder.exited;
    }
  });

  it("says what to do for a missing store or another schema", async () => {
    const empty = await makeTempDir();
    expect(() => ResultsStore.open(empty)).toThrow(
      / is not a run: pass a results\/<run-id> folder that openeval run wrote$/,
    );
    const other = await makeTempDir();
    const db = new Database(join(other, "store.db"));
    db.run("PRAGMA user_version = 99");
    db.close();
    expect(() => ResultsStore.open(other)).toThrow(
      /has schema 99; this openeval reads schemas 1 to 4. Start a new run with --new/,
    );
  });

  it("reads a schema-1 store (no stored-text seals) read-only as it is, and upgrades it when opened to write", async () => {
    const directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.saveEvalRun(evalRun({ state: "completed", completedAt: "2026-11-29T00:00:01.000Z", elapsedMs: 1000 }));
    store.close();
    rewriteInSchema(directory, 1);
    const schema = vi.spyOn(EvalRunSchema, "safeParse");
    try {
      const readonly = ResultsStore.open(directory, { readonly: true });
      expect(readonly.evalRuns().map((run) => run.elapsedMs)).toEqual([1000]);
      expect(schema).toHaveBeenCalledTimes(1);
      readonly.close();
      const upgraded = ResultsStore.open(directory);
      upgraded.saveEvalRun(
        evalRun({ id: "eval_2", state: "completed", completedAt: "2026-11-29T00:00:02.000Z", elapsedMs: 2000 }),
      );
      schema.mockClear();
      // The old row has no seal and goes through the schema; the new one is read by its seal.
      expect(upgraded.evalRuns().map((run) => run.elapsedMs)).toEqual([1000, 2000]);
      expect(schema).toHaveBeenCalledTimes(1);
      upgraded.close();
    } finally {
      schema.mockRestore();
    }
    const check = new Database(join(directory, "store.db"), { readonly: true });
    expect(check.query("PRAGMA user_version").get()).toEqual({ user_version: 4 });
    expect(check.query("SELECT id, value_sha256 IS NOT NULL AS sealed FROM eval_runs ORDER BY rowid").all()).toEqual([
      { id: "eval_1", sealed: 0 },
      { id: "eval_2", sealed: 1 },
    ]);
    check.close();
  });

  it("refuses to finalize a row that does not match its schema, saying it is a bug", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    const broken = { ...evalRun({ state: "completed" }), elapsedMs: "soon" } as unknown as EvalRun;
    expect(() => store.saveEvalRun(broken)).toThrow(
      /openeval tried to record a row that does not match its own format \(a bug; report it\).*elapsedMs/s,
    );
    expect(store.evalRuns()).toEqual([]);
  });

  describe("heads: what a plan reads", () => {
    const recorded = () => [
      evalRun({
        state: "completed",
        completedAt: "2026-11-29T00:00:01.000Z",
        elapsedMs: 1000,
        metrics: metricsCosting(0.25),
      }),
      evalRun({
        id: "eval_2",
        slot: { evalId: "e", model: "openai/gpt-5", repetition: 2, variant: "concise" },
        state: "failed",
        infrastructureError: true,
        setupError: true,
        preparationError: {
          step: 1,
          cwd: ".",
          argv: ["npm", "ci"],
          exitCode: 1,
          timedOut: false,
          outputTail: "ERR",
          log: "eval-runs/eval_2/prepare.log",
        },
        error: "npm ci failed",
        completedAt: "2026-11-29T00:00:02.000Z",
        elapsedMs: 2000,
        input: { ...evalRun().input, candidateFingerprint: "g" },
      }),
      evalRun({ id: "eval_3", state: "running" }),
      evalRun({
        id: "eval_4",
        slot: { evalId: "cased", model: "control/positive", variant: "current", repetition: 1, case: "late" },
        state: "completed",
        completedAt: "2026-11-29T00:00:04.000Z",
        elapsedMs: 10,
      }),
    ];
    const judged = () => [
      judgeRun({ state: "failed", error: "judge.ts threw", completedAt: "2026-11-29T00:00:03.000Z", elapsedMs: 10 }),
      judgeRun({ id: "judge_2", evalRunId: "eval_2", judgeFingerprint: "k" }),
    ];
    /** What each record's head must be: the fields run-heads.ts names, as the record has them. */
    const expectedHeads = () => ({
      evalRuns: recorded().map(
        ({ id, slot, state, infrastructureError, setupError, preparationError, error, input, metrics }) => ({
          id,
          slot,
          state,
          infrastructureError,
          ...(setupError === undefined ? {} : { setupError }),
          ...(preparationError === undefined ? {} : { preparationError }),
          error,
          input: { candidateFingerprint: input.candidateFingerprint },
          metrics: metrics ? { cost: { usd: metrics.cost.usd } } : null,
        }),
      ),
      judgeRuns: judged().map(({ id, evalRunId, state, judgeFingerprint, error }) => ({
        id,
        evalRunId,
        state,
        judgeFingerprint,
        error,
      })),
    });
    const write = async () => {
      const directory = await makeTempDir();
      const store = ResultsStore.open(directory, { create: true });
      for (const run of recorded()) store.saveEvalRun(run);
      for (const run of judged()) store.saveJudgeRun(run);
      store.close();
      return directory;
    };

    it("are the records' plan fields, read from the columns SQLite derives: in a new store, and in older ones read as they are or upgraded", async () => {
      const current = await write();
      const store = ResultsStore.open(current, { readonly: true });
      expect(store.heads()).toEqual(expectedHeads());
      store.close();
      for (const version of [1, 2, 3] as const) {
        const directory = await write();
        rewriteInSchema(directory, version);
        const readonly = ResultsStore.open(directory, { readonly: true });
        expect(readonly.heads(), `schema ${version}, read-only`).toEqual(expectedHeads());
        readonly.close();
        const upgraded = ResultsStore.open(directory);
        expect(upgraded.heads(), `schema ${version}, upgraded`).toEqual(expectedHeads());
        upgraded.close();
      }
    });

    it("unsealed() gives whole the finalized rows the store did not seal; immutable() says whether the triggers stand", async () => {
      const directory = await write();
      const raw = new Database(join(directory, "store.db"));
      const forged = {
        ...judgeRun({ id: "judge_forged", state: "completed", completedAt: "2026-11-29T00:00:04.000Z", elapsedMs: 1 }),
        scores: {},
      };
      raw
        .query(
          "INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, 'eval_1', 'completed', ?, 0)",
        )
        .run(forged.id, JSON.stringify(forged));
      raw.close();
      const store = ResultsStore.open(directory);
      expect(store.unsealed()).toEqual({ evalRuns: [], judgeRuns: [forged] });
      expect(store.immutable()).toBe(true);
      store.close();
      const edit = new Database(join(directory, "store.db"));
      edit.run("DROP TRIGGER eval_runs_finalized_immutable");
      edit.close();
      const edited = ResultsStore.open(directory, { readonly: true });
      expect(edited.immutable()).toBe(false);
      edited.close();
      // A schema-1 store has no seals: every finalized row is unsealed.
      const old = await write();
      rewriteInSchema(old, 1);
      const unsealed = ResultsStore.open(old, { readonly: true });
      expect(unsealed.unsealed().evalRuns.map((run) => run.id)).toEqual(["eval_1", "eval_2", "eval_4"]);
      expect(unsealed.unsealed().judgeRuns.map((run) => run.id)).toEqual(["judge_1"]);
      unsealed.close();
    });
  });
});

function metricsCosting(usd: number): NonNullable<EvalRun["metrics"]> {
  return {
    version: 1,
    cost: { usd },
    tokens: { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
    tools: { calls: 0, succeeded: 0, failed: 0, unfinished: 0, errorRate: null },
    requests: { started: 1, succeeded: 1, failed: 0, retries: 0 },
    compactions: 0,
    timing: { elapsedMs: 1000, modelActiveMs: 500, outputTokensPerSecond: 2 },
  };
}

/**
 * The store in `directory` rewritten in an older schema's layout, as that openeval created it: schema 1 without the
 * seal columns, schema 2 with them, neither with the head columns; schema 3 with the head columns but the case's;
 * the same rows and triggers.
 */
function rewriteInSchema(directory: string, version: 1 | 2 | 3): void {
  const file = join(directory, "store.db");
  const current = `${file}.current`;
  renameSync(file, current);
  const db = new Database(file);
  const heads = (columns: typeof EVAL_RUN_HEAD_COLUMNS) =>
    version === 3 ? `, ${generatedColumns(columns, "STORED").join(", ")}` : "";
  const seals = (columns: string, headColumns: typeof EVAL_RUN_HEAD_COLUMNS) =>
    version >= 2 ? `, ${columns}${heads(headColumns)}` : "";
  db.run(`CREATE TABLE run (id TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE eval_runs (id TEXT PRIMARY KEY, eval_id TEXT NOT NULL, model TEXT NOT NULL, repetition INTEGER NOT NULL, state TEXT NOT NULL, value TEXT NOT NULL, created INTEGER NOT NULL${seals("value_sha256 TEXT", EVAL_RUN_HEAD_COLUMNS)});
CREATE INDEX eval_runs_slot ON eval_runs (eval_id, model, repetition);
CREATE TABLE judge_runs (id TEXT PRIMARY KEY, eval_run_id TEXT NOT NULL REFERENCES eval_runs (id), state TEXT NOT NULL, value TEXT NOT NULL, created INTEGER NOT NULL${seals("value_sha256 TEXT, chain_sha256 TEXT", JUDGE_RUN_HEAD_COLUMNS)});
CREATE INDEX judge_runs_eval_run ON judge_runs (eval_run_id);
CREATE TABLE events (sequence INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, type TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, at INTEGER NOT NULL);`);
  const copied = (columns: string) => (version >= 2 ? `, ${columns}` : "");
  db.query("ATTACH ? AS current").run(current);
  db.run(`INSERT INTO run SELECT * FROM current.run;
INSERT INTO eval_runs (id, eval_id, model, repetition, state, value, created${copied("value_sha256")}) SELECT id, eval_id, model, repetition, state, value, created${copied("value_sha256")} FROM current.eval_runs ORDER BY rowid;
INSERT INTO judge_runs (id, eval_run_id, state, value, created${copied("value_sha256, chain_sha256")}) SELECT id, eval_run_id, state, value, created${copied("value_sha256, chain_sha256")} FROM current.judge_runs ORDER BY rowid;
INSERT INTO events SELECT * FROM current.events;`);
  for (const { sql } of db.query("SELECT sql FROM current.sqlite_master WHERE type = 'trigger'").all() as {
    sql: string;
  }[])
    db.run(sql);
  db.run("DETACH current");
  db.run(`PRAGMA user_version = ${version}`);
  db.close();
  rmSync(current);
}
