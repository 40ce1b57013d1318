// The slots a recorded run has, read from the store alone: its declared evals × models × variants × repetitions,
// plus any recorded outside them. Which work counts for each is records/active-work.ts's decision, asked without
// fingerprints: the viewer does not re-plan against benchmark.ts (it may have changed, or be absent from an
// export), so it shows what was recorded.
import { CURRENT_VARIANT_NAME } from "../load/index.ts";
import { creditsOf, type BenchmarkRun, type RecordedWorkIndex, type SlotKey } from "../records/index.ts";
import { activeIntervals, judgeCostOf, type Interval, type SlotObservation } from "../results/index.ts";
import type { IndexedEvalRun, IndexedJudgeRun } from "./indexed-runs.ts";
import type { LatestReviews } from "./apply-reviews.ts";

/**
 * A slot with the recorded work that counts for it (not run/slot-work.ts's SlotWork, which is work to do), and what
 * the results stage's statistics take of it. What derives from its records is read through getters rather than kept:
 * kept, they would be several objects more per slot of a large run's viewer's live heap.
 * Nothing is "fresh" here: the viewer runs nothing.
 */
export class RecordedSlot implements SlotObservation {
  readonly evalId: string;
  readonly model: string;
  readonly variant: string;
  readonly repetition: number;
  /** The case of an eval with cases; absent for an eval without. */
  readonly case?: string;
  /** Criterion id → credit, from a completed judgment; null when the slot is unresolved. */
  readonly scores: Record<string, number | null> | null;

  constructor(
    key: SlotKey,
    readonly evalRun: IndexedEvalRun | null,
    /** The latest finished (not running, not interrupted) judge run of evalRun. */
    readonly judgeRun: IndexedJudgeRun | null,
    readonly failed: boolean,
    /** People's reviews decide the criteria they review, as in the run's summary. */
    reviews?: LatestReviews,
  ) {
    this.evalId = key.evalId;
    this.model = key.model;
    this.variant = key.variant;
    this.repetition = key.repetition;
    if (key.case !== undefined) this.case = key.case;
    this.scores =
      judgeRun && reviews ? reviews.applyCredits(judgeRun.evalRunId, creditsOf(judgeRun)) : creditsOf(judgeRun);
  }

  get costUSD(): number | null {
    return this.evalRun?.metrics?.cost.usd ?? null;
  }

  get elapsedMs(): number | null {
    return this.evalRun?.elapsedMs ?? null;
  }

  get judgeCostUSD(): number | null {
    return judgeCostOf(this.evalRun, this.judgeRun);
  }

  get intervals(): Interval[] {
    return activeIntervals(this.evalRun, this.judgeRun);
  }

  get integrityFindings(): IndexedJudgeRun["integrityFindings"] {
    return this.judgeRun?.integrityFindings;
  }

  get executed(): boolean {
    return this.evalRun !== null;
  }

  get fresh(): boolean {
    return false;
  }
}

/** Every slot of the run, in eval order; `recorded` holds the same eval runs, grouped. */
export function recordedSlots(
  run: BenchmarkRun,
  evalRuns: readonly IndexedEvalRun[],
  recorded: RecordedWorkIndex<IndexedEvalRun, IndexedJudgeRun>,
  reviews?: LatestReviews,
): RecordedSlot[] {
  const evals = unique([...run.evals, ...evalRuns.map((evalRun) => evalRun.slot.evalId)]);
  const models = unique([...run.models, ...evalRuns.map((evalRun) => evalRun.slot.model)]);
  // A run recorded before variants lists none: then a variant's slots are known once something was recorded for them.
  const declaredVariants = [CURRENT_VARIANT_NAME, ...(run.variants ?? [])];
  const variants = unique([...declaredVariants, ...evalRuns.map((evalRun) => evalRun.slot.variant)]);
  const repetitions = Math.max(run.repetitions, ...evalRuns.map((evalRun) => evalRun.slot.repetition));
  const declared = (key: SlotKey) =>
    key.repetition <= run.repetitions &&
    run.evals.includes(key.evalId) &&
    run.models.includes(key.model) &&
    declaredVariants.includes(key.variant);
  // The run's record does not list cases: an eval's are those its eval runs were recorded for.
  const casesOf = Map.groupBy(
    evalRuns.filter((evalRun) => evalRun.slot.case !== undefined),
    (evalRun) => evalRun.slot.evalId,
  );
  const slots: RecordedSlot[] = [];
  for (const evalId of evals) {
    const cases = unique(casesOf.get(evalId)?.map((evalRun) => evalRun.slot.case) ?? [undefined]);
    for (const caseId of cases) {
      for (const model of models) {
        for (const variant of variants) {
          for (let repetition = 1; repetition <= repetitions; repetition++) {
            const key = { evalId, model, variant, repetition, ...(caseId === undefined ? {} : { case: caseId }) };
            const work = recorded.activeWork(key);
            // Slots beyond the declared ones count only when something was recorded for them.
            if (!work.evalRun && !declared(key)) continue;
            slots.push(
              new RecordedSlot(
                key,
                work.evalRun,
                work.judgeRun,
                work.status === "candidateFailed" || work.status === "judgeFailed",
                reviews,
              ),
            );
          }
        }
      }
    }
  }
  return slots;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
