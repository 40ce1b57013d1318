// Where each eval run's time went: the phases the harness publishes (util/phase-timing.ts: OpenCode's set-up,
// launch, start, session; a container's start, copies and removal) and the runner's events (candidate, judge),
// summed per eval run while a recorder is on.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { RunnerEvent } from "../../packages/openeval/src/index.ts";
import { PHASE_CHANNEL, type PhaseTiming } from "../../packages/openeval/src/util/phase-timing.ts";
import { median, now, round } from "./stats.ts";

/** Phase name → ms, summed over its occurrences in one eval run. */
export type PhaseTotals = Record<string, number>;

export interface PhaseRecorder {
  /** Give it every runner event: it times `candidate` (started → finished) and `judge` (started → finished). */
  onEvent(event: RunnerEvent): void;
  /** Stops listening; the phases of each eval run, by its id. */
  stop(): Map<string, PhaseTotals>;
}

export function recordPhases(): PhaseRecorder {
  const byEvalRun = new Map<string, PhaseTotals>();
  const add = (evalRunId: string, phase: string, ms: number) => {
    const totals = byEvalRun.get(evalRunId) ?? {};
    totals[phase] = (totals[phase] ?? 0) + ms;
    byEvalRun.set(evalRunId, totals);
  };
  const listener = (message: unknown) => {
    const timing = message as PhaseTiming;
    add(timing.owner, timing.phase, timing.endMs - timing.startMs);
  };
  subscribe(PHASE_CHANNEL, listener);
  const started = new Map<string, number>();
  const since = (id: string) => now() - (started.get(id) ?? Number.NaN);
  return {
    onEvent: (event) => {
      if (event.type === "candidate.started") started.set(event.evalRunId, now());
      if (event.type === "candidate.finished") add(event.evalRun.id, "candidate", since(event.evalRun.id));
      if (event.type === "judge.started") started.set(event.judgeRunId, now());
      if (event.type === "judge.finished") add(event.judgeRun.evalRunId, "judge", since(event.judgeRun.id));
    },
    stop: () => {
      unsubscribe(PHASE_CHANNEL, listener);
      return byEvalRun;
    },
  };
}

/** Each phase's median over the eval runs (a phase missing from an eval run counts as 0 there). */
export function medianPhases(byEvalRun: ReadonlyMap<string, PhaseTotals>): PhaseTotals {
  const runs = [...byEvalRun.values()];
  const names = new Set(runs.flatMap((totals) => Object.keys(totals)));
  return Object.fromEntries(
    [...names].sort().map((name) => [name, round(median(runs.map((totals) => totals[name] ?? 0)))]),
  );
}
