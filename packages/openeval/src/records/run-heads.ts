// What a plan decides from: the few fields of an eval run or judge run that say which recorded work
// counts for a slot. The store keeps them in columns SQLite derives from each row's stored JSON (generated columns),
// so planning a large run parses no row. Every EvalRun and JudgeRun is a head too: code holding whole records passes
// them as they are.
import type { EvalRun, JudgeRun } from "./schema.ts";
import { fromStoredSlot } from "./slot-key.ts";

export type EvalRunHead = Pick<
  EvalRun,
  "id" | "slot" | "state" | "infrastructureError" | "setupError" | "preparationError" | "error"
> & {
  input: Pick<EvalRun["input"], "candidateFingerprint">;
  /** Only the recorded cost (the plan's estimate): null when the run has no metrics or no known cost. */
  metrics: { cost: { usd: number | null } } | null;
};

export type JudgeRunHead = Pick<JudgeRun, "id" | "evalRunId" | "state" | "judgeFingerprint" | "error">;

/** A derived column: its name, SQLite type and the JSON path in the row's `value` it is derived from. */
type HeadColumn = readonly [name: string, type: "TEXT" | "INTEGER" | "REAL", path: string];

/** The eval run's derived columns (the plain id, eval_id, model, repetition and state columns are not among them). */
export const EVAL_RUN_HEAD_COLUMNS: readonly HeadColumn[] = [
  ["variant", "TEXT", "$.slot.variant"],
  ["candidate_fingerprint", "TEXT", "$.input.candidateFingerprint"],
  ["infrastructure_error", "INTEGER", "$.infrastructureError"],
  ["setup_error", "INTEGER", "$.setupError"],
  ["preparation_error", "TEXT", "$.preparationError"],
  ["error", "TEXT", "$.error"],
  ["cost_usd", "REAL", "$.metrics.cost.usd"],
];

/** The eval run's case (store schema 4): null for an eval without cases. */
export const EVAL_RUN_CASE_COLUMNS: readonly HeadColumn[] = [["case_id", "TEXT", "$.slot.case"]];

export const JUDGE_RUN_HEAD_COLUMNS: readonly HeadColumn[] = [
  ["judge_fingerprint", "TEXT", "$.judgeFingerprint"],
  ["error", "TEXT", "$.error"],
];

/** `name TYPE GENERATED ALWAYS AS (json_extract(value, path)) <storage>`, for CREATE TABLE (STORED) or ALTER TABLE (VIRTUAL). */
export function generatedColumns(columns: readonly HeadColumn[], storage: "STORED" | "VIRTUAL"): string[] {
  return columns.map(
    ([name, type, path]) => `${name} ${type} GENERATED ALWAYS AS (json_extract(value, '${path}')) ${storage}`,
  );
}

/** The select list that reads the columns: by name where the table has them, else the same derivation (an older store read-only). */
export function selectHeadColumns(columns: readonly HeadColumn[], derived: boolean): string {
  return columns.map(([name, , path]) => (derived ? name : `json_extract(value, '${path}') AS ${name}`)).join(", ");
}

export interface EvalRunHeadRow {
  id: string;
  eval_id: string;
  model: string;
  repetition: number;
  state: EvalRun["state"];
  variant: string | null;
  case_id: string | null;
  candidate_fingerprint: string;
  infrastructure_error: number;
  setup_error: number | null;
  preparation_error: string | null;
  error: string | null;
  cost_usd: number | null;
}

export interface JudgeRunHeadRow {
  id: string;
  eval_run_id: string;
  state: JudgeRun["state"];
  judge_fingerprint: string;
  error: string | null;
}

export function toEvalRunHead(row: EvalRunHeadRow): EvalRunHead {
  return {
    id: row.id,
    slot: fromStoredSlot({
      evalId: row.eval_id,
      model: row.model,
      repetition: row.repetition,
      variant: row.variant ?? undefined,
      ...(row.case_id === null ? {} : { case: row.case_id }),
    }),
    state: row.state,
    infrastructureError: row.infrastructure_error === 1,
    ...(row.setup_error === null ? {} : { setupError: row.setup_error === 1 }),
    ...(row.preparation_error === null
      ? {}
      : { preparationError: JSON.parse(row.preparation_error) as EvalRun["preparationError"] }),
    error: row.error,
    input: { candidateFingerprint: row.candidate_fingerprint },
    metrics: row.cost_usd === null ? null : { cost: { usd: row.cost_usd } },
  };
}

export function toJudgeRunHead(row: JudgeRunHeadRow): JudgeRunHead {
  return {
    id: row.id,
    evalRunId: row.eval_run_id,
    state: row.state,
    judgeFingerprint: row.judge_fingerprint,
    error: row.error,
  };
}
