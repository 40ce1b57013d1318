// Which recorded work counts for each slot, read from the store alone: the slot's latest eval run and that run's
// latest finished judgment — what `openeval run` reuses when benchmark.ts has not changed since. The viewer does
// not re-plan against benchmark.ts (it may have changed, or be absent from an export): it shows what was recorded.
import { CURRENT_VARIANT_NAME } from "../load/index.ts";
import { slotId, toSlotKey, variantOf, type BenchmarkRun, type EvalRun, type JudgeRun, type SlotKey } from "../records/index.ts";
import type { SlotCell } from "./api-types.ts";

/** A slot with the recorded work that counts for it (not run/slot-work.ts's SlotWork, which is work to do). */
export interface RecordedSlot extends SlotKey {
  evalRun: EvalRun | null;
  /** The latest finished (not running, not interrupted) judge run of evalRun. */
  judgeRun: JudgeRun | null;
  /** Criterion id → credit, from a completed judgment; null when the slot is unresolved. */
  scores: Record<string, number | null> | null;
  failed: boolean;
}

/** Every slot of the run (declared evals × models × repetitions, plus any recorded outside them), in eval order. */
export function findActiveWork(run: BenchmarkRun, evalRuns: readonly EvalRun[], judgeRunsByEvalRun: ReadonlyMap<string, readonly JudgeRun[]>): RecordedSlot[] {
  const latest = new Map<string, EvalRun>();
  for (const evalRun of evalRuns) latest.set(slotId(evalRun.slot), evalRun);

  const evals = unique([...run.evals, ...evalRuns.map((evalRun) => evalRun.slot.evalId)]);
  const models = unique([...run.models, ...evalRuns.map((evalRun) => evalRun.slot.model)]);
  // A run recorded before variants lists none: then a variant's slots are known once something was recorded for them.
  const declaredVariants = [CURRENT_VARIANT_NAME, ...(run.variants ?? [])];
  const variants = unique([...declaredVariants, ...evalRuns.map((evalRun) => variantOf(evalRun.slot))]);
  const repetitions = Math.max(run.repetitions, ...evalRuns.map((evalRun) => evalRun.slot.repetition));
  const slots: RecordedSlot[] = [];
  for (const evalId of evals) {
    for (const model of models) {
      for (const variant of variants) {
        for (let repetition = 1; repetition <= repetitions; repetition++) {
          const key = toSlotKey({ evalId, model, repetition, variant });
          const evalRun = latest.get(slotId(key)) ?? null;
          // Slots beyond the declared repetitions (or of an undeclared variant) count only when something was recorded for them.
          if (!evalRun && (repetition > run.repetitions || !run.evals.includes(evalId) || !run.models.includes(model) || !declaredVariants.includes(variant))) continue;
          slots.push(recordedSlot(key, evalRun, evalRun ? (judgeRunsByEvalRun.get(evalRun.id) ?? []) : []));
        }
      }
    }
  }
  return slots;
}

function recordedSlot(key: SlotKey, evalRun: EvalRun | null, judgeRuns: readonly JudgeRun[]): RecordedSlot {
  const judgeRun = judgeRuns.filter((candidate) => candidate.state !== "running" && candidate.state !== "interrupted").at(-1) ?? null;
  const candidateFailed = evalRun !== null && (evalRun.infrastructureError || evalRun.state === "failed");
  const scores =
    judgeRun?.state === "completed" ? Object.fromEntries(Object.entries(judgeRun.scores ?? {}).map(([id, score]) => [id, score.value])) : null;
  return { ...key, evalRun, judgeRun, scores, failed: candidateFailed || (judgeRun !== null && judgeRun.state !== "completed") };
}

/** A slot's eval-level credit: the mean of its criteria; null when any is unresolved or it has none. */
export function slotValue(scores: Record<string, number | null> | null): number | null {
  if (!scores) return null;
  const values = Object.values(scores);
  if (values.length === 0 || values.some((value) => value === null)) return null;
  return (values as number[]).reduce((sum, value) => sum + value, 0) / values.length;
}

export function toSlotCell(slot: RecordedSlot): SlotCell {
  return {
    repetition: slot.repetition,
    evalRunId: slot.evalRun?.id ?? null,
    state: slot.evalRun?.state ?? "pending",
    judgeRunId: slot.judgeRun?.id ?? null,
    judgeState: slot.judgeRun?.state ?? null,
    value: slotValue(slot.scores),
  };
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
