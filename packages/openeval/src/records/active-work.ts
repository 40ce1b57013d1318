// Which recorded work counts for a slot, and the judgment that counts: decided here only. The planner
// asks for the work that matches today's fingerprints (and so, through the plan, does the run summary); the viewer
// asks without fingerprints, for what the run recorded last, whatever benchmark.ts says now.
import { slotId } from "./slot-key.ts";
import type { JudgeRun, SlotKey } from "./schema.ts";
import type { EvalRunHead, JudgeRunHead } from "./run-heads.ts";

/**
 * `missing`: nothing recorded (or, with fingerprints, nothing with these candidate inputs: `inputsChanged`);
 * `interrupted`: the eval run that counts never finished; `candidateFailed`; `unjudged` (`judgeInterrupted` when a
 * judge run with these judge inputs never finished, `judgeInputsChanged` when judge runs exist but none with these
 * judge inputs); `judgeFailed`: the judgment that counts did not complete; `scored`.
 */
export type ActiveWorkStatus =
  | "missing"
  | "inputsChanged"
  | "interrupted"
  | "candidateFailed"
  | "unjudged"
  | "judgeInterrupted"
  | "judgeInputsChanged"
  | "judgeFailed"
  | "scored";

export interface ActiveWork<E extends EvalRunHead, J extends JudgeRunHead> {
  status: ActiveWorkStatus;
  /** The slot's eval run that counts: the latest (with the expected candidate inputs), finished or not. */
  evalRun: E | null;
  /** Its latest finished (not running, not interrupted) judge run (with the expected judge inputs). */
  judgeRun: J | null;
}

/** The inputs recorded work must have been made with to count (the planner's fingerprints). */
export interface ExpectedInputs {
  candidateFingerprint: string;
  judgeFingerprint: string;
}

/**
 * Recorded work grouped once, so each slot's answer is a lookup (planning and the viewer stay linear in the slots).
 * It holds whole records or only their heads (a plan), and answers with what it holds.
 */
export class RecordedWorkIndex<E extends EvalRunHead, J extends JudgeRunHead> {
  private readonly evalRunsBySlot: Map<string, E[]>;
  /** Every judge run, by the eval run it judges, in recorded order. */
  readonly judgeRunsByEvalRun: ReadonlyMap<string, readonly J[]>;

  constructor(evalRuns: readonly E[], judgeRuns: readonly J[]) {
    this.evalRunsBySlot = Map.groupBy(evalRuns, (run) => slotId(run.slot));
    this.judgeRunsByEvalRun = Map.groupBy(judgeRuns, (run) => run.evalRunId);
  }

  /** The slot's latest execution, whatever its inputs (what `retry` names). */
  latest(slot: SlotKey): E | null {
    return this.evalRunsBySlot.get(slotId(slot))?.at(-1) ?? null;
  }

  judgeRunsOf(evalRunId: string): readonly J[] {
    return this.judgeRunsByEvalRun.get(evalRunId) ?? [];
  }

  /** The work that counts for `slot`; with `expected`, only work made with those inputs. */
  activeWork(slot: SlotKey, expected?: ExpectedInputs): ActiveWork<E, J> {
    const forSlot = this.evalRunsBySlot.get(slotId(slot)) ?? [];
    // findLast, not filter(…).at(-1): no copy of the slot's runs per slot of every plan.
    const evalRun =
      forSlot.findLast((run) => !expected || run.input.candidateFingerprint === expected.candidateFingerprint) ?? null;
    if (!evalRun) return { status: forSlot.length > 0 ? "inputsChanged" : "missing", evalRun: null, judgeRun: null };
    if (evalRun.state === "running" || evalRun.state === "interrupted")
      return { status: "interrupted", evalRun, judgeRun: null };
    if (evalRun.infrastructureError || evalRun.state === "failed")
      return { status: "candidateFailed", evalRun, judgeRun: null };
    const judgeRuns = this.judgeRunsOf(evalRun.id);
    const matches = (run: J) => !expected || run.judgeFingerprint === expected.judgeFingerprint;
    const judgeRun =
      judgeRuns.findLast((run) => run.state !== "running" && run.state !== "interrupted" && matches(run)) ?? null;
    if (!judgeRun) return { status: unjudgedStatus(judgeRuns, matches), evalRun, judgeRun: null };
    return { status: judgeRun.state === "completed" ? "scored" : "judgeFailed", evalRun, judgeRun };
  }
}

/** Why an eval run has no finished judgment with the expected inputs: one was stopped, or all it has were made with others. */
function unjudgedStatus<J extends JudgeRunHead>(
  judgeRuns: readonly J[],
  matches: (run: J) => boolean,
): ActiveWorkStatus {
  // Any matching judge run here is unfinished: a stopped judgment is not a change of inputs.
  if (judgeRuns.some(matches)) return "judgeInterrupted";
  return judgeRuns.length > 0 ? "judgeInputsChanged" : "unjudged";
}

/** Criterion id → credit of a completed judgment; null for any other (the slot is unresolved). An unscored one has {}. */
export function creditsOf(
  judgeRun: (Pick<JudgeRun, "state"> & { scores: Record<string, { value: number | null }> | null }) | null,
): Record<string, number | null> | null {
  if (judgeRun?.state !== "completed") return null;
  // A loop, not fromEntries(entries().map()): every slot of a large run's viewer and summary makes one.
  const credits: Record<string, number | null> = {};
  for (const id in judgeRun.scores) credits[id] = judgeRun.scores[id]!.value;
  return credits;
}
