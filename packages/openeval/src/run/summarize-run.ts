// A run's summary: the plan re-made over what is recorded now, so that every slot counts exactly once with its
// active judgment (or as unresolved), then aggregated with equal weights.
import type { BenchmarkDefinition } from "../load/index.ts";
import { planSlots, type PlanScope } from "../plan/index.ts";
import { aggregateScores, type SlotOutcome } from "../results/index.ts";
import type { ResultsStore } from "../results/index.ts";
import type { RunSummary } from "./events.ts";

export function summarizeRun(benchmark: BenchmarkDefinition, store: ResultsStore, scope: PlanScope, runId: string): RunSummary {
  // Re-planned over what is recorded now, with the same limits, so deferrals keep their reasons.
  const plan = planSlots(benchmark, { evalRuns: store.evalRuns(), judgeRuns: store.judgeRuns() }, { ...scope, fresh: false, retry: [], rejudge: [] });
  const inScope = plan.slots.filter((slot) => slot.deferredBy !== "scope");
  const outcomes: SlotOutcome[] = inScope.map((slot) => ({
    evalId: slot.evalId,
    model: slot.model,
    repetition: slot.repetition,
    scores: slot.action === "reuse" && slot.judgeRun ? toCredits(slot.judgeRun.scores) : null,
    costUSD: slot.evalRun?.metrics?.cost.usd ?? null,
    elapsedMs: slot.evalRun?.elapsedMs ?? null,
  }));
  const criteria: Record<string, string[]> = {};
  for (const evaluation of benchmark.evals) {
    const seen = outcomes.filter((outcome) => outcome.evalId === evaluation.id).flatMap((outcome) => Object.keys(outcome.scores ?? {}));
    criteria[evaluation.id] = [...new Set([...evaluation.criteria.map((criterion) => criterion.id), ...seen])];
  }
  const open = inScope
    .filter((slot) => slot.action !== "reuse")
    .map((slot) => ({ slot: { evalId: slot.evalId, model: slot.model, repetition: slot.repetition }, action: slot.action, reason: slot.reason }));
  const outOfScope = plan.slots.length - inScope.length;
  return {
    runId,
    directory: store.directory,
    models: aggregateScores(outcomes, criteria),
    complete: inScope.every((slot) => slot.action === "reuse"),
    open,
    outOfScope,
  };
}

/** An unscored judgment (no scores) leaves every criterion of the slot unresolved. */
function toCredits(scores: Record<string, { value: number | null }> | null): Record<string, number | null> {
  return Object.fromEntries(Object.entries(scores ?? {}).map(([id, score]) => [id, score.value]));
}
