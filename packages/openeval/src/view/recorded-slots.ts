// The slots a recorded run has, read from the store alone: its declared evals × models × variants × repetitions,
// plus any recorded outside them. Which work counts for each is records/active-work.ts's decision, asked without
// fingerprints: the viewer does not re-plan against benchmark.ts (it may have changed, or be absent from an
// export), so it shows what was recorded.
import { CURRENT_VARIANT_NAME } from "../load/index.ts";
import { creditsOf, toSlotKey, variantOf, type BenchmarkRun, type RecordedWorkIndex, type SlotKey } from "../records/index.ts";
import { judgingOf, slotCredit, type SlotObservation } from "../results/index.ts";
import type { SlotCell } from "./api-types.ts";
import type { IndexedEvalRun, IndexedJudgeRun } from "./indexed-runs.ts";

/**
 * A slot with the recorded work that counts for it (not run/slot-work.ts's SlotWork, which is work to do), and what
 * the results stage's statistics take of it: one object per slot, where a second one per slot was ~70 MB of a
 * 100,000-run viewer's peak (issue 18 §4). Nothing is "fresh" here: the viewer runs nothing.
 */
export interface RecordedSlot extends SlotObservation {
  evalRun: IndexedEvalRun | null;
  /** The latest finished (not running, not interrupted) judge run of evalRun. */
  judgeRun: IndexedJudgeRun | null;
  /** Criterion id → credit, from a completed judgment; null when the slot is unresolved. */
  scores: Record<string, number | null> | null;
  failed: boolean;
}

/** Every slot of the run, in eval order; `recorded` holds the same eval runs, grouped. */
export function recordedSlots(run: BenchmarkRun, evalRuns: readonly IndexedEvalRun[], recorded: RecordedWorkIndex<IndexedEvalRun, IndexedJudgeRun>): RecordedSlot[] {
  const evals = unique([...run.evals, ...evalRuns.map((evalRun) => evalRun.slot.evalId)]);
  const models = unique([...run.models, ...evalRuns.map((evalRun) => evalRun.slot.model)]);
  // A run recorded before variants lists none: then a variant's slots are known once something was recorded for them.
  const declaredVariants = [CURRENT_VARIANT_NAME, ...(run.variants ?? [])];
  const variants = unique([...declaredVariants, ...evalRuns.map((evalRun) => variantOf(evalRun.slot))]);
  const repetitions = Math.max(run.repetitions, ...evalRuns.map((evalRun) => evalRun.slot.repetition));
  const declared = (key: SlotKey) =>
    key.repetition <= run.repetitions && run.evals.includes(key.evalId) && run.models.includes(key.model) && declaredVariants.includes(variantOf(key));
  const slots: RecordedSlot[] = [];
  for (const evalId of evals) {
    for (const model of models) {
      for (const variant of variants) {
        for (let repetition = 1; repetition <= repetitions; repetition++) {
          const key = toSlotKey({ evalId, model, repetition, variant });
          const work = recorded.activeWork(key);
          // Slots beyond the declared ones count only when something was recorded for them.
          if (!work.evalRun && !declared(key)) continue;
          const failed = work.status === "candidateFailed" || work.status === "judgeFailed";
          const { evalRun, judgeRun } = work;
          slots.push({
            ...key,
            evalRun,
            judgeRun,
            scores: creditsOf(judgeRun),
            failed,
            costUSD: evalRun?.metrics?.cost.usd ?? null,
            elapsedMs: evalRun?.elapsedMs ?? null,
            ...judgingOf(evalRun, judgeRun),
            executed: evalRun !== null,
            fresh: false,
          });
        }
      }
    }
  }
  return slots;
}

export function toSlotCell(slot: RecordedSlot): SlotCell {
  return {
    repetition: slot.repetition,
    evalRunId: slot.evalRun?.id ?? null,
    state: slot.evalRun?.state ?? "pending",
    judgeRunId: slot.judgeRun?.id ?? null,
    judgeState: slot.judgeRun?.state ?? null,
    value: slotCredit(slot.scores),
  };
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
