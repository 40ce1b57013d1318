// Invariant evaluations in the store: each row holds the evaluation's text and that text's sha256, under triggers
// that refuse to change or delete it. Readers take the rows whose text still hashes to its seal; `openeval verify`
// reports any other, and a store whose triggers were dropped (which is how a row is edited).
import { randomBytes } from "node:crypto";
import { sha256 } from "../util/hash.ts";
import type { IntegrityProblem } from "./integrity.ts";
import { InvariantEvaluationSchema, type InvariantEvaluation } from "./invariant-result-schema.ts";
import type { ResultsStore } from "./store.ts";

/** Appended with each evaluation: a summary recorded before it no longer holds (summary/recorded-summary.ts). */
export const INVARIANT_EVALUATED_EVENT = "invariant.evaluated";

export function newInvariantEvaluationId(): string {
  return `iv_${randomBytes(6).toString("hex")}`;
}

/** Appends the evaluation to the run, sealed: its text and that text's sha256, in one transaction with its event. */
export function recordInvariantEvaluation(store: ResultsStore, evaluation: InvariantEvaluation): void {
  const value = JSON.stringify(InvariantEvaluationSchema.parse(evaluation));
  store.saveInvariantEvaluation(
    { id: evaluation.id, invariant: evaluation.invariant, value, valueSha256: sha256(value) },
    {
      type: INVARIANT_EVALUATED_EVENT,
      value: { id: evaluation.id, invariant: evaluation.invariant, status: evaluation.status },
    },
  );
}

/** The run's evaluations that check out, in the order they were recorded, and a problem for each that does not. */
export function readInvariantEvaluations(store: ResultsStore): {
  evaluations: InvariantEvaluation[];
  problems: IntegrityProblem[];
  /** Invariants with a row that fails its check: no earlier row of theirs may stand in for it. */
  tampered: Set<string>;
} {
  const evaluations: InvariantEvaluation[] = [];
  const problems: IntegrityProblem[] = [];
  const tampered = new Set<string>();
  const problem = (id: string, message: string) => problems.push({ kind: "invariant", id, message });
  if (!store.invariantEvaluationsImmutable())
    problem(
      "store",
      "the triggers that keep invariant evaluations from being changed or deleted were dropped: the recorded invariant results cannot be trusted",
    );
  for (const row of store.invariantEvaluationRows()) {
    if (sha256(row.value) !== row.valueSha256) {
      tampered.add(row.invariant);
      problem(
        row.id,
        `invariant evaluation ${row.id} (${row.invariant}) was changed after it was recorded (its sha256 differs)`,
      );
      continue;
    }
    const parsed = InvariantEvaluationSchema.safeParse(JSON.parse(row.value));
    if (!parsed.success || parsed.data.id !== row.id || parsed.data.invariant !== row.invariant) {
      tampered.add(row.invariant);
      problem(row.id, `invariant evaluation ${row.id} is not one this openeval recorded`);
      continue;
    }
    evaluations.push(parsed.data);
  }
  return { evaluations, problems, tampered };
}

/** Each invariant's latest evaluation, by invariant id. */
export function latestInvariantEvaluations(
  evaluations: readonly InvariantEvaluation[],
): Map<string, InvariantEvaluation> {
  return new Map(evaluations.map((evaluation) => [evaluation.invariant, evaluation]));
}
