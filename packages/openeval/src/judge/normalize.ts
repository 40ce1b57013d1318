// Score normalization (docs/guide/writing-evals.md): true/false → 1/0, finite [0,1] kept, null → unresolved,
// { value, reason, evidence, measurements } as its value; anything else is a judging error. Never clamped.
import { CRITERION_ID } from "../util/criterion-id.ts";
import type { CriterionScore } from "../records/index.ts";

export class JudgingError extends Error {
  readonly code = "OE_JUDGING_ERROR";
}

export type NormalizedOutput =
  | { kind: "scored"; scores: Record<string, CriterionScore> }
  /** No `scores` (or an empty one): the slot stays in the denominator as unresolved. */
  | { kind: "unscored" };

export function normalizeJudgeOutput(
  output: unknown,
  source: CriterionScore["source"],
  declared?: readonly string[] | null,
): NormalizedOutput {
  if (output === null || typeof output !== "object" || Array.isArray(output)) {
    throw new JudgingError(
      `${source} must return an object such as { scores: { ... } }; it returned ${describe(output)}`,
    );
  }
  const scores = (output as { scores?: unknown }).scores;
  if (scores === undefined || (isPlainObject(scores) && Object.keys(scores).length === 0)) return { kind: "unscored" };
  if (!isPlainObject(scores)) {
    throw new JudgingError(`${source} returned scores as ${describe(scores)}; return an object keyed by criterion id`);
  }
  const normalized: Record<string, CriterionScore> = {};
  for (const [id, returned] of Object.entries(scores)) {
    if (!CRITERION_ID.test(id)) {
      throw new JudgingError(`${source} returned criterion id "${id}"; ids must match ${CRITERION_ID}`);
    }
    normalized[id] = normalizeScore(id, returned, source);
  }
  if (declared) checkDeclared(Object.keys(normalized), declared, source);
  return { kind: "scored", scores: normalized };
}

/** What judge.ts may return for one criterion: true/false (1/0), a credit in [0, 1], null (unresolved). */
export type ScoreValue = boolean | number | null;

/** A criterion's score with its grounds (OpenEval 0.5's structured score). */
export interface CodeScore {
  value: ScoreValue;
  reason?: string;
  evidence?: unknown[];
  measurements?: unknown;
}

function normalizeScore(id: string, returned: unknown, source: CriterionScore["source"]): CriterionScore {
  if (isPlainObject(returned) && "value" in returned) {
    const { value, reason, evidence, measurements } = returned as Record<string, unknown>;
    if (reason !== undefined && typeof reason !== "string") {
      throw new JudgingError(`criterion "${id}": reason must be a string, got ${describe(reason)}`);
    }
    if (evidence !== undefined && !Array.isArray(evidence)) {
      throw new JudgingError(`criterion "${id}": evidence must be an array, got ${describe(evidence)}`);
    }
    return {
      value: credit(id, value),
      source,
      ...(reason === undefined ? {} : { reason }),
      ...(evidence === undefined ? {} : { evidence }),
      ...(measurements === undefined ? {} : { measurements }),
    };
  }
  return { value: credit(id, returned), source };
}

function credit(id: string, value: unknown): number | null {
  if (value === true) return 1;
  if (value === false) return 0;
  if (value === null) return null;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1) return value;
  throw new JudgingError(
    `criterion "${id}" has value ${describe(value)}, which is not a score; return true/false, a number from 0 to 1, or null (unresolved) — nothing is clamped`,
  );
}

function checkDeclared(returned: string[], declared: readonly string[], source: string): void {
  const missing = declared.filter((id) => !returned.includes(id));
  const extra = returned.filter((id) => !declared.includes(id));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 && `missing ${missing.join(", ")}`,
      extra.length > 0 && `undeclared ${extra.join(", ")}`,
    ];
    throw new JudgingError(
      `${source} must return exactly the criteria it declares in \`export const criteria\`: ${parts.filter(Boolean).join("; ")}`,
    );
  }
}

/** A resolved criterion credit: a finite number in [0, 1]. */
export function isScored(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
}

/** Equal-weight mean of criterion credits; null when any is unresolved or there are none. */
export function criterionMean(scores: Readonly<Record<string, Pick<CriterionScore, "value">>>): number | null {
  const values = Object.values(scores).map((score) => score.value);
  if (values.length === 0 || !values.every(isScored)) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function describe(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value) + " (a string)";
  if (typeof value === "number") return String(value);
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object")
    return `an object${value.constructor && value.constructor !== Object ? ` (${value.constructor.name})` : ""}`;
  return `a ${typeof value}`;
}
