// What the viewer's index keeps of each eval run and judge run: the fields its rows, slots, statistics
// and live queue read, because whole records of a large run would fill the viewer's heap; a detail page reads its
// record whole from the store by id (viewer-data.ts).
import type { RecordKeeping } from "./checked-records.ts";
import { sameSlot, type EvalRun, type IntegrityFinding, type JudgeRun } from "../records/index.ts";

export type IndexedEvalRun = Pick<
  EvalRun,
  | "id"
  | "slot"
  | "control"
  | "state"
  | "infrastructureError"
  | "setupError"
  | "preparationError"
  | "integrityError"
  | "error"
  | "startedAt"
  | "completedAt"
  | "elapsedMs"
  | "evidence"
  | "earlyStop"
> & {
  input: Pick<EvalRun["input"], "candidateFingerprint" | "isolation">;
  metrics: { cost: { usd: number | null }; tools: { calls: number } } | null;
};

export type IndexedJudgeRun = Pick<
  JudgeRun,
  | "id"
  | "evalRunId"
  | "slot"
  | "kind"
  | "state"
  | "judgeFingerprint"
  | "startedAt"
  | "completedAt"
  | "elapsedMs"
  | "costUSD"
  | "decidedEarly"
  | "unscored"
  | "error"
  | "directory"
  | "integrityFindings"
> & {
  /** Each criterion's credit; its reason and citations are on the judge run's page. */
  scores: Record<string, { value: number | null }> | null;
};

export const INDEXED: RecordKeeping<IndexedEvalRun, IndexedJudgeRun> = {
  evalRun: indexEvalRun,
  judgeRun: indexJudgeRun,
};

function indexEvalRun(evalRun: EvalRun): IndexedEvalRun {
  const {
    id,
    slot,
    control,
    state,
    infrastructureError,
    setupError,
    preparationError,
    integrityError,
    error,
    startedAt,
    completedAt,
    elapsedMs,
    evidence,
    earlyStop,
    input,
    metrics,
  } = evalRun;
  return {
    id,
    slot,
    control,
    state,
    infrastructureError,
    ...(setupError === undefined ? {} : { setupError }),
    ...(preparationError === undefined ? {} : { preparationError }),
    ...(integrityError === undefined ? {} : { integrityError }),
    error,
    startedAt,
    completedAt,
    elapsedMs,
    evidence,
    ...(earlyStop === undefined ? {} : { earlyStop }),
    input: {
      candidateFingerprint: input.candidateFingerprint,
      ...(input.isolation === undefined ? {} : { isolation: input.isolation }),
      ...(input.engine === undefined ? {} : { engine: input.engine }),
    },
    metrics: metrics && { cost: { usd: metrics.cost.usd }, tools: { calls: metrics.tools.calls } },
  };
}

/**
 * A judge run shares the slot of the eval run it judged (an equal object with equal strings), and its scores share one
 * `{ value }` per distinct credit (most are 0, 1 or null): ~4 objects fewer per judge run.
 */
function indexJudgeRun(judgeRun: JudgeRun, judged: IndexedEvalRun | null): IndexedJudgeRun {
  const {
    id,
    evalRunId,
    slot,
    kind,
    state,
    judgeFingerprint,
    startedAt,
    completedAt,
    elapsedMs,
    costUSD,
    decidedEarly,
    unscored,
    error,
    directory,
    scores,
    integrityFindings,
  } = judgeRun;
  return {
    id,
    evalRunId,
    slot: judged !== null && sameSlot(judged.slot, slot) ? judged.slot : slot,
    kind,
    state,
    judgeFingerprint,
    startedAt,
    completedAt,
    elapsedMs,
    ...(costUSD === undefined ? {} : { costUSD }),
    ...(decidedEarly === undefined ? {} : { decidedEarly }),
    unscored,
    error,
    directory,
    // Most judgments find nothing: one shared empty list.
    ...(integrityFindings === undefined
      ? {}
      : { integrityFindings: integrityFindings.length === 0 ? NO_FINDINGS : integrityFindings }),
    scores:
      scores &&
      Object.fromEntries(Object.entries(scores).map(([criterion, score]) => [criterion, creditOf(score.value)])),
  };
}

const NO_FINDINGS: IntegrityFinding[] = Object.freeze([]) as unknown as IntegrityFinding[];

const CREDITS = new Map<number | null, { readonly value: number | null }>();
function creditOf(value: number | null): { value: number | null } {
  let credit = CREDITS.get(value);
  if (credit === undefined) {
    credit = Object.freeze({ value });
    // Bounded: a fractional credit seen once is not kept for good.
    if (CREDITS.size < 1_000) CREDITS.set(value, credit);
  }
  return credit;
}
