// The results store: one embedded SQLite database per run (bun:sqlite, WAL). Finalized eval runs and judge
// runs are immutable — the database itself refuses to update or delete them — so a crash or a bug cannot
// rewrite finished, paid-for work.
import { RunNotFoundError, StoreError } from "./errors.ts";
import { Database, type SQLQueryBindings, type Statement } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type * as z from "zod";
import { sealEvalRun, sealJudgeRun, vouchForStoredText } from "./integrity.ts";
import {
  EVAL_RUN_CASE_COLUMNS,
  EVAL_RUN_HEAD_COLUMNS,
  generatedColumns,
  JUDGE_RUN_HEAD_COLUMNS,
  selectHeadColumns,
  toEvalRunHead,
  toJudgeRunHead,
  type EvalRunHead,
  type EvalRunHeadRow,
  type JudgeRunHead,
  type JudgeRunHeadRow,
} from "./run-heads.ts";
import { sha256 } from "../util/hash.ts";
import { fromStoredSlot, toStoredRow } from "./slot-key.ts";
import {
  BenchmarkRunSchema,
  EvalRunSchema,
  JudgeRunSchema,
  type BenchmarkRun,
  type EvalRun,
  type JudgeRun,
} from "./schema.ts";

export const STORE_FILE = "store.db";
/** 2 added the stored-text seals (integrity.ts), 3 the columns a plan reads (run-heads.ts), 4 the eval run's case.
 * An older store is upgraded when opened for writing (its rows have no seal and are checked in full; its head columns
 * are computed as read), and a read-only open reads it as it is. */
const SCHEMA_VERSION = 4;
/** "OEV1": marks the file as an openeval results store. */
const APPLICATION_ID = 0x4f455631;

/** The triggers that keep finalized rows immutable: a plan trusts the head columns of sealed rows only while they stand. */
const IMMUTABILITY_TRIGGERS = ["eval_runs", "judge_runs"].flatMap((table) => [
  {
    name: `${table}_finalized_immutable`,
    sql: `CREATE TRIGGER IF NOT EXISTS ${table}_finalized_immutable BEFORE UPDATE ON ${table} WHEN OLD.state <> 'running'
BEGIN SELECT RAISE(ABORT, 'openeval: finalized ${table} rows are immutable'); END;`,
  },
  {
    name: `${table}_never_deleted`,
    sql: `CREATE TRIGGER IF NOT EXISTS ${table}_never_deleted BEFORE DELETE ON ${table}
BEGIN SELECT RAISE(ABORT, 'openeval: ${table} rows are never deleted'); END;`,
  },
]);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS run (id TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS eval_runs (
  id TEXT PRIMARY KEY, eval_id TEXT NOT NULL, model TEXT NOT NULL, repetition INTEGER NOT NULL,
  state TEXT NOT NULL, value TEXT NOT NULL, created INTEGER NOT NULL, value_sha256 TEXT,
  ${generatedColumns([...EVAL_RUN_HEAD_COLUMNS, ...EVAL_RUN_CASE_COLUMNS], "STORED").join(",\n  ")});
CREATE INDEX IF NOT EXISTS eval_runs_slot ON eval_runs (eval_id, model, repetition);
CREATE TABLE IF NOT EXISTS judge_runs (
  id TEXT PRIMARY KEY, eval_run_id TEXT NOT NULL REFERENCES eval_runs (id), state TEXT NOT NULL,
  value TEXT NOT NULL, created INTEGER NOT NULL, value_sha256 TEXT, chain_sha256 TEXT,
  ${generatedColumns(JUDGE_RUN_HEAD_COLUMNS, "STORED").join(",\n  ")});
CREATE INDEX IF NOT EXISTS judge_runs_eval_run ON judge_runs (eval_run_id);
CREATE TABLE IF NOT EXISTS events (sequence INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, type TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, at INTEGER NOT NULL);
${IMMUTABILITY_TRIGGERS.map((trigger) => trigger.sql).join("\n")}
`;

const ADD_SEALS = `
ALTER TABLE eval_runs ADD COLUMN value_sha256 TEXT;
ALTER TABLE judge_runs ADD COLUMN value_sha256 TEXT;
ALTER TABLE judge_runs ADD COLUMN chain_sha256 TEXT;`;

/** SQLite can add generated columns to a table that has rows only as VIRTUAL: computed when read, the same values. */
const ADD_HEAD_COLUMNS = [
  ...generatedColumns(EVAL_RUN_HEAD_COLUMNS, "VIRTUAL").map((column) => `ALTER TABLE eval_runs ADD COLUMN ${column};`),
  ...generatedColumns(JUDGE_RUN_HEAD_COLUMNS, "VIRTUAL").map(
    (column) => `ALTER TABLE judge_runs ADD COLUMN ${column};`,
  ),
].join("\n");

const ADD_CASE_COLUMNS = generatedColumns(EVAL_RUN_CASE_COLUMNS, "VIRTUAL")
  .map((column) => `ALTER TABLE eval_runs ADD COLUMN ${column};`)
  .join("\n");

const UPGRADES: Record<number, string> = {
  0: SCHEMA,
  1: `${ADD_SEALS}\n${ADD_HEAD_COLUMNS}\n${ADD_CASE_COLUMNS}`,
  2: `${ADD_HEAD_COLUMNS}\n${ADD_CASE_COLUMNS}`,
  3: ADD_CASE_COLUMNS,
};

/**
 * The triggers that keep a table append-only (reviews, invariant evaluations): a later row supersedes an earlier one,
 * none is changed or deleted. `what` names its rows in the refusal.
 */
function appendOnlyTriggers(table: string, what: string): string {
  return `
CREATE TRIGGER IF NOT EXISTS ${table}_never_changed BEFORE UPDATE ON ${table}
BEGIN SELECT RAISE(ABORT, 'openeval: ${what} are never changed; record a new one'); END;
CREATE TRIGGER IF NOT EXISTS ${table}_never_deleted BEFORE DELETE ON ${table}
BEGIN SELECT RAISE(ABORT, 'openeval: ${what} are never deleted'); END;`;
}

/** Reviews are append-only: a later review of the same criterion supersedes an earlier one. */
const REVIEWS_SCHEMA = `
CREATE TABLE IF NOT EXISTS reviews (
  id TEXT PRIMARY KEY, eval_run_id TEXT NOT NULL, criterion TEXT NOT NULL, value TEXT NOT NULL,
  value_sha256 TEXT NOT NULL, created INTEGER NOT NULL);${appendOnlyTriggers("reviews", "reviews")}`;

/** A review as the store keeps it: its file's text and that text's sha256. */
export interface ReviewRow {
  id: string;
  evalRunId: string;
  criterion: string;
  value: string;
  valueSha256: string;
}

/**
 * Invariant evaluations are append-only: a later one of the same invariant supersedes an earlier one, none is changed
 * or deleted. Made by the first evaluation, so a run without invariants keeps the schema it had.
 */
const INVARIANT_EVALUATIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS invariant_evaluations (
  id TEXT PRIMARY KEY, invariant TEXT NOT NULL, value TEXT NOT NULL, value_sha256 TEXT NOT NULL, created INTEGER NOT NULL);${appendOnlyTriggers("invariant_evaluations", "invariant evaluations")}`;

/** An invariant evaluation as the store keeps it: its text and that text's sha256 (records/invariant-results.ts). */
export interface InvariantEvaluationRow {
  id: string;
  invariant: string;
  value: string;
  valueSha256: string;
}

/** The last rowid of each table when read (see marks()). */
export interface StoreMarks {
  evalRuns: number;
  judgeRuns: number;
}

export class ResultsStore {
  /** The columns a read selects: a schema-1 store opened read-only has no seals, an older one no head columns. */
  private readonly evalRunColumns: string;
  private readonly judgeRunColumns: string;
  private readonly evalRunHeadColumns: string;
  private readonly judgeRunHeadColumns: string;
  private readonly sealed: boolean;

  private constructor(
    private readonly db: Database,
    readonly directory: string,
    version: number,
  ) {
    this.sealed = version >= 2;
    this.evalRunColumns = this.sealed
      ? "value, value_sha256, NULL AS chain_sha256"
      : "value, NULL AS value_sha256, NULL AS chain_sha256";
    this.judgeRunColumns = this.sealed ? "value, value_sha256, chain_sha256" : this.evalRunColumns;
    this.evalRunHeadColumns = [
      selectHeadColumns(EVAL_RUN_HEAD_COLUMNS, version >= 3),
      selectHeadColumns(EVAL_RUN_CASE_COLUMNS, version >= 4),
    ].join(", ");
    this.judgeRunHeadColumns = selectHeadColumns(JUDGE_RUN_HEAD_COLUMNS, version >= 3);
  }

  /** Opens (or with `create`, creates) the store of the run in `directory`. */
  static open(directory: string, options: { create?: boolean; readonly?: boolean } = {}): ResultsStore {
    const file = join(directory, STORE_FILE);
    if (!existsSync(file) && !options.create) throw new RunNotFoundError({ named: directory });
    if (options.create) mkdirSync(directory, { recursive: true });
    const db = new Database(file, options.readonly ? { readonly: true } : { create: true });
    // First, so that every later statement (switching to WAL included) waits for a runner or viewer opening the
    // same store at the same instant instead of failing with "database is locked".
    db.run("PRAGMA busy_timeout = 5000");
    if (!options.readonly) {
      db.run("PRAGMA journal_mode = WAL");
      db.run("PRAGMA synchronous = NORMAL");
      const version = schemaVersion(db);
      const upgrade = UPGRADES[version];
      if (upgrade !== undefined) {
        db.transaction(() => {
          db.run(upgrade);
          db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
          db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
        })();
      }
    }
    const version = schemaVersion(db);
    if (version !== SCHEMA_VERSION && !(version >= 1 && version < SCHEMA_VERSION && options.readonly)) {
      db.close();
      throw new StoreError("schemaUnsupported", { file, version, newest: SCHEMA_VERSION });
    }
    return new ResultsStore(db, directory, version);
  }

  close(): void {
    this.db.close();
  }

  writeRun(run: BenchmarkRun): void {
    this.db.query("INSERT OR REPLACE INTO run (id, value) VALUES (?, ?)").run(run.id, JSON.stringify(run));
  }

  readRun(): BenchmarkRun {
    const row = this.db.query("SELECT value FROM run LIMIT 1").get() as { value: string } | null;
    if (!row) throw new StoreError("noRunRecord", { directory: this.directory });
    return parseWithSchema(BenchmarkRunSchema, row.value);
  }

  /**
   * Inserts a new eval run, or updates one that is still running (the store refuses any other change). A
   * finalized row is sealed: it carries its integrity hash (integrity.ts).
   */
  saveEvalRun(record: EvalRun): void {
    const row = record.state === "running" ? unsealed(record) : sealEvalRun(checkedRow(EvalRunSchema, record));
    this.db
      .query(
        `INSERT INTO eval_runs (id, eval_id, model, repetition, state, value, created, value_sha256) VALUES ($id, $eval, $model, $repetition, $state, $value, $created, $valueSha256)
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, value = excluded.value, value_sha256 = excluded.value_sha256`,
      )
      .run({
        $id: record.id,
        $eval: record.slot.evalId,
        $model: record.slot.model,
        $repetition: record.slot.repetition,
        $state: record.state,
        $value: row.value,
        $created: Date.now(),
        $valueSha256: row.seal?.valueSha256 ?? null,
      });
  }

  /** The same for judge runs; sealing a finalized one also writes its folder's files.json. */
  saveJudgeRun(record: JudgeRun): void {
    const row =
      record.state === "running"
        ? unsealed(record)
        : sealJudgeRun(this.directory, checkedRow(JudgeRunSchema, record), this.evalRun(record.evalRunId));
    this.db
      .query(
        `INSERT INTO judge_runs (id, eval_run_id, state, value, created, value_sha256, chain_sha256) VALUES ($id, $evalRun, $state, $value, $created, $valueSha256, $chainSha256)
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, value = excluded.value, value_sha256 = excluded.value_sha256, chain_sha256 = excluded.chain_sha256`,
      )
      .run({
        $id: record.id,
        $evalRun: record.evalRunId,
        $state: record.state,
        $value: row.value,
        $created: Date.now(),
        $valueSha256: row.seal?.valueSha256 ?? null,
        $chainSha256: row.seal?.chainSha256 ?? null,
      });
  }

  /**
   * Appends a review's row: its text and that text's sha256 (records/reviews.ts writes the file beside it). The table
   * and its triggers are made by the first review, so a store without reviews is the schema it was.
   */
  saveReview(row: ReviewRow): void {
    this.db.transaction(() => {
      this.db.run(REVIEWS_SCHEMA);
      this.db
        .query(
          "INSERT INTO reviews (id, eval_run_id, criterion, value, value_sha256, created) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .run(row.id, row.evalRunId, row.criterion, row.value, row.valueSha256, Date.now());
    })();
  }

  /** Every review's row, in the order they were recorded (none when no review was ever recorded). */
  reviewRows(): ReviewRow[] {
    if (!this.hasTable("reviews")) return [];
    return this.db
      .query(
        "SELECT id, eval_run_id AS evalRunId, criterion, value, value_sha256 AS valueSha256 FROM reviews ORDER BY rowid",
      )
      .all() as ReviewRow[];
  }

  /** Whether the triggers that keep reviews append-only stand (true while there is no review table). */
  reviewsImmutable(): boolean {
    return this.appendOnly("reviews");
  }

  /** Whether a table made by the first row it holds is still append-only: absent, or its two triggers standing. */
  private appendOnly(table: string): boolean {
    if (!this.hasTable(table)) return true;
    const present = this.db
      .query(
        "SELECT COUNT(*) AS count FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%RAISE(ABORT%' AND name IN (?, ?)",
      )
      .get(`${table}_never_changed`, `${table}_never_deleted`) as { count: number };
    return present.count === 2;
  }

  private hasTable(name: string): boolean {
    return this.db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;
  }

  /** Runs `work` in one transaction: many saves commit once (a bulk import; each save alone is its own commit). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /**
   * Inserts finalized records from another run as they are, in one transaction (merge-runs): never sealed again, so
   * a record that fails its integrity check there fails it here too (a copy has no stored-text seal: it is checked in
   * full). An id already present aborts the whole copy.
   */
  copyFinalized(evalRuns: readonly EvalRun[], judgeRuns: readonly JudgeRun[]): void {
    if ([...evalRuns, ...judgeRuns].some((record) => record.state === "running"))
      throw new StoreError("copyNotFinalized");
    const insertEvalRun = this.db.query(
      "INSERT INTO eval_runs (id, eval_id, model, repetition, state, value, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const insertJudgeRun = this.db.query(
      "INSERT INTO judge_runs (id, eval_run_id, state, value, created) VALUES (?, ?, ?, ?, ?)",
    );
    this.db.transaction(() => {
      for (const run of evalRuns)
        insertEvalRun.run(
          run.id,
          run.slot.evalId,
          run.slot.model,
          run.slot.repetition,
          run.state,
          JSON.stringify(toStoredRow(run)),
          Date.now(),
        );
      for (const run of judgeRuns)
        insertJudgeRun.run(run.id, run.evalRunId, run.state, JSON.stringify(toStoredRow(run)), Date.now());
    })();
  }

  evalRun(id: string): EvalRun | null {
    const row = this.db.query(`SELECT ${this.evalRunColumns} FROM eval_runs WHERE id = ?`).get(id) as StoredRow | null;
    return row ? parseRow(EvalRunSchema, row) : null;
  }

  /**
   * All eval runs in the order they were started, which is the order they were inserted: rowid order, read straight
   * off the table (rows are never deleted, and an update keeps its rowid). Ordering by the `created` clock instead made
   * SQLite sort every row, values included (~0.3 s at 50,000 rows), and misorders rows if the clock steps back.
   */
  evalRuns(): EvalRun[] {
    return [...this.eachEvalRun()];
  }

  /** The same eval runs one at a time as SQLite steps: a reader that keeps part of each never holds them all whole. */
  eachEvalRun(): Generator<EvalRun> {
    return eachRow(EvalRunSchema, this.db.query(`SELECT ${this.evalRunColumns} FROM eval_runs ORDER BY rowid`));
  }

  /**
   * Every eval run and judge run as a plan sees it (run-heads.ts), in the order they were inserted, read from the
   * head columns alone: no row's JSON is parsed or hashed (reading and checking every full row
   * dominated planning a large run). Whether those columns can be trusted is for the caller: see `immutable()` and `unsealed()`.
   */
  heads(): { evalRuns: EvalRunHead[]; judgeRuns: JudgeRunHead[] } {
    const evalRuns = this.db
      .query(`SELECT id, eval_id, model, repetition, state, ${this.evalRunHeadColumns} FROM eval_runs ORDER BY rowid`)
      .all() as EvalRunHeadRow[];
    const judgeRuns = this.db
      .query(`SELECT id, eval_run_id, state, ${this.judgeRunHeadColumns} FROM judge_runs ORDER BY rowid`)
      .all() as JudgeRunHeadRow[];
    return { evalRuns: evalRuns.map(toEvalRunHead), judgeRuns: judgeRuns.map(toJudgeRunHead) };
  }

  /**
   * The finalized rows the store did not seal itself — inserted by hand, copied by merge-runs, or from a schema-1
   * store — whole: the rows whose heads only a full integrity check can vouch for.
   */
  unsealed(): { evalRuns: EvalRun[]; judgeRuns: JudgeRun[] } {
    const where = this.sealed ? "WHERE value_sha256 IS NULL AND state <> 'running'" : "WHERE state <> 'running'";
    return {
      evalRuns: parseRows(
        EvalRunSchema,
        this.db.query(`SELECT ${this.evalRunColumns} FROM eval_runs ${where} ORDER BY rowid`),
      ),
      judgeRuns: parseRows(
        JudgeRunSchema,
        this.db.query(`SELECT ${this.judgeRunColumns} FROM judge_runs ${where} ORDER BY rowid`),
      ),
    };
  }

  /** Whether the triggers that refuse to change or delete a finalized row still stand (dropping them is how a row is edited). */
  immutable(): boolean {
    const names = IMMUTABILITY_TRIGGERS.map((trigger) => trigger.name);
    const present = this.db
      .query(
        `SELECT COUNT(*) AS count FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%RAISE(ABORT%' AND name IN (${names.map(() => "?").join(", ")})`,
      )
      .get(...names) as { count: number };
    return present.count === names.length;
  }

  /** Where each table ends now: rows inserted later have higher rowids (rows are never deleted). */
  marks(): StoreMarks {
    const last = (table: string) =>
      (this.db.query(`SELECT COALESCE(MAX(rowid), 0) AS last FROM ${table}`).get() as { last: number }).last;
    return { evalRuns: last("eval_runs"), judgeRuns: last("judge_runs") };
  }

  /** The eval and judge runs inserted after `marks` (updated since too, when a running row was inserted after them). */
  recordsAfter(marks: StoreMarks): { evalRuns: EvalRun[]; judgeRuns: JudgeRun[] } {
    return {
      evalRuns: parseRows(
        EvalRunSchema,
        this.db.query(`SELECT ${this.evalRunColumns} FROM eval_runs WHERE rowid > ? ORDER BY rowid`),
        marks.evalRuns,
      ),
      judgeRuns: parseRows(
        JudgeRunSchema,
        this.db.query(`SELECT ${this.judgeRunColumns} FROM judge_runs WHERE rowid > ? ORDER BY rowid`),
        marks.judgeRuns,
      ),
    };
  }

  /** The models this run holds eval runs for (one query, no row parsing). */
  evalRunModels(): string[] {
    return (this.db.query("SELECT DISTINCT model FROM eval_runs ORDER BY model").all() as { model: string }[]).map(
      (row) => row.model,
    );
  }

  /** Judge runs (of one eval run, or all) in the order they were inserted, as evalRuns(). */
  judgeRuns(evalRunId?: string): JudgeRun[] {
    return evalRunId === undefined
      ? [...this.eachJudgeRun()]
      : parseRows(
          JudgeRunSchema,
          this.db.query(`SELECT ${this.judgeRunColumns} FROM judge_runs WHERE eval_run_id = ? ORDER BY rowid`),
          evalRunId,
        );
  }

  /** Every judge run one at a time, as eachEvalRun(). */
  eachJudgeRun(): Generator<JudgeRun> {
    return eachRow(JudgeRunSchema, this.db.query(`SELECT ${this.judgeRunColumns} FROM judge_runs ORDER BY rowid`));
  }

  judgeRun(id: string): JudgeRun | null {
    const row = this.db
      .query(`SELECT ${this.judgeRunColumns} FROM judge_runs WHERE id = ?`)
      .get(id) as StoredRow | null;
    return row ? parseRow(JudgeRunSchema, row) : null;
  }

  /** The eval and judge runs still marked running (a runner that died left them): read by their state column, so
   * recovery does not parse every row of a large run. */
  unfinished(): { evalRuns: EvalRun[]; judgeRuns: JudgeRun[] } {
    const running = (table: string) =>
      this.db.query(
        `SELECT value, NULL AS value_sha256, NULL AS chain_sha256 FROM ${table} WHERE state = 'running' ORDER BY rowid`,
      );
    return {
      evalRuns: parseRows(EvalRunSchema, running("eval_runs")),
      judgeRuns: parseRows(JudgeRunSchema, running("judge_runs")),
    };
  }

  appendEvent(type: string, value: unknown): void {
    this.db
      .query("INSERT INTO events (at, type, value) VALUES (?, ?, ?)")
      .run(new Date().toISOString(), type, JSON.stringify(value));
  }

  /** The events of these types, in the order they were appended; `omit`: a JSON path left out of each value (SQLite's json_remove). */
  eventsOf(types: readonly string[], omit?: string): { sequence: number; at: string; type: string; value: unknown }[] {
    const value = omit === undefined ? "value" : "json_remove(value, ?) AS value";
    const rows = this.db
      .query(
        `SELECT sequence, at, type, ${value} FROM events WHERE type IN (${types.map(() => "?").join(", ")}) ORDER BY sequence`,
      )
      .all(...(omit === undefined ? [] : [omit]), ...types) as {
      sequence: number;
      at: string;
      type: string;
      value: string;
    }[];
    return rows.map((row) => ({ ...row, value: JSON.parse(row.value) as unknown }));
  }

  /** The value at `path` in the event appended as `sequence` (SQLite's json_extract), or null. */
  eventPart(sequence: number, path: string): unknown {
    const row = this.db
      .query("SELECT json_extract(value, ?) AS part FROM events WHERE sequence = ?")
      .get(path, sequence) as { part: string | number | null } | null;
    return row === null || row.part === null
      ? null
      : typeof row.part === "string"
        ? (JSON.parse(row.part) as unknown)
        : row.part;
  }

  /** The value of the latest event of `type`, or null when none was appended. */
  latestEvent(type: string): unknown {
    const row = this.db.query("SELECT value FROM events WHERE type = ? ORDER BY sequence DESC LIMIT 1").get(type) as {
      value: string;
    } | null;
    return row === null ? null : (JSON.parse(row.value) as unknown);
  }

  /** Appends an invariant evaluation's row and, in the same transaction, the event that says the run changed. */
  saveInvariantEvaluation(row: InvariantEvaluationRow, event: { type: string; value: unknown }): void {
    this.db.transaction(() => {
      this.db.run(INVARIANT_EVALUATIONS_SCHEMA);
      this.db
        .query("INSERT INTO invariant_evaluations (id, invariant, value, value_sha256, created) VALUES (?, ?, ?, ?, ?)")
        .run(row.id, row.invariant, row.value, row.valueSha256, Date.now());
      this.appendEvent(event.type, event.value);
    })();
  }

  /** Every invariant evaluation's row, in the order they were recorded (none when none was ever recorded). */
  invariantEvaluationRows(): InvariantEvaluationRow[] {
    if (!this.hasTable("invariant_evaluations")) return [];
    return this.db
      .query("SELECT id, invariant, value, value_sha256 AS valueSha256 FROM invariant_evaluations ORDER BY rowid")
      .all() as InvariantEvaluationRow[];
  }

  /** Whether the triggers that keep invariant evaluations append-only stand (true while there is no such table). */
  invariantEvaluationsImmutable(): boolean {
    return this.appendOnly("invariant_evaluations");
  }

  beat(pid = process.pid): void {
    this.db
      .query(
        "INSERT INTO heartbeat (id, pid, at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, at = excluded.at",
      )
      .run(pid, Date.now());
  }

  /**
   * Takes the run for `pid` in one write transaction (BEGIN IMMEDIATE: of two runners claiming at the same instant,
   * the second waits for the first's commit and then sees its claim). Returns null when taken, else the holder
   * that `holds` says is still working on the run.
   */
  claim(pid: number, holds: (holder: { pid: number; at: number }) => boolean): { pid: number; at: number } | null {
    return this.db
      .transaction(() => {
        const holder = this.heartbeat();
        if (holder && holder.pid !== pid && holds(holder)) return holder;
        this.beat(pid);
        return null;
      })
      .immediate();
  }

  /** Gives the run up (a runner that finished): the next runner need not wait for the heartbeat to go stale. */
  release(pid = process.pid): void {
    this.db.query("DELETE FROM heartbeat WHERE id = 1 AND pid = ?").run(pid);
  }

  heartbeat(): { pid: number; at: number } | null {
    return this.db.query("SELECT pid, at FROM heartbeat WHERE id = 1").get() as { pid: number; at: number } | null;
  }

  /**
   * The events of every type but `types`, in order, their values as stored (unparsed): a recorded summary's key
   * digests them (summary/recorded-summary.ts), so that an event type added later counts unless it is left out by name.
   */
  eventTextsExcept(types: readonly string[]): { sequence: number; type: string; value: string }[] {
    return this.db
      .query(
        `SELECT sequence, type, value FROM events WHERE type NOT IN (${types.map(() => "?").join(", ")}) ORDER BY sequence`,
      )
      .all(...types) as { sequence: number; type: string; value: string }[];
  }
}

/** A row as read: its text and, for a row the store sealed, the seals of that text. */
interface StoredRow {
  value: string;
  value_sha256: string | null;
  chain_sha256: string | null;
}

function schemaVersion(db: Database): number {
  return (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
}

function unsealed(record: EvalRun | JudgeRun): { value: string; seal: null } {
  return { value: JSON.stringify(toStoredRow(record)), seal: null };
}

/** The record as its schema has it, so that the sealed text parses to the same value with or without the schema. */
function checkedRow<Schema extends z.ZodType>(schema: Schema, record: z.input<Schema>): z.output<Schema> {
  const parsed = schema.safeParse(record);
  if (!parsed.success) throw new StoreError("ownRecordInvalid", { problem: parsed.error.message });
  return parsed.data;
}

/**
 * Every row of `query`, parsed one at a time as SQLite steps: the text of a row is garbage as soon as it is parsed,
 * where reading them all first held every row's text and its parse at once (a large run's read peaked at twice the
 * memory).
 */
function parseRows<R extends EvalRun | JudgeRun>(
  schema: z.ZodType<R>,
  query: Statement,
  ...params: SQLQueryBindings[]
): R[] {
  return [...eachRow(schema, query, ...params)];
}

function* eachRow<R extends EvalRun | JudgeRun>(
  schema: z.ZodType<R>,
  query: Statement,
  ...params: SQLQueryBindings[]
): Generator<R> {
  for (const row of query.iterate(...params) as IterableIterator<StoredRow>) yield parseRow(schema, row);
}

/** A row whose text hashes to its seal is the text the store wrote after checking it against its schema: it is
 * parsed as JSON only (its slot given the variant the schema's default would), and vouched for to the integrity
 * check. Any other row goes through the schema. */
function parseRow<R extends EvalRun | JudgeRun>(schema: z.ZodType<R>, row: StoredRow): R {
  const valueSha256 = row.value_sha256 === null ? null : sha256(row.value);
  if (valueSha256 !== null && valueSha256 === row.value_sha256) {
    const parsed = JSON.parse(row.value) as R;
    parsed.slot = fromStoredSlot(parsed.slot);
    vouchForStoredText(parsed, { valueSha256, chainSha256: row.chain_sha256 });
    return parsed;
  }
  return parseWithSchema(schema, row.value);
}

function parseWithSchema<Schema extends z.ZodType>(schema: Schema, value: string): z.output<Schema> {
  const parsed = schema.safeParse(JSON.parse(value));
  if (!parsed.success) throw new StoreError("recordInvalid", { what: "A row", problem: parsed.error.message });
  return parsed.data;
}
