// A model's time and spend in the summary: the union of the intervals its candidates and judges
// were active, as OpenEval's runtime counts it, so that concurrent work is counted once rather than summed; and what
// judging spent, apart from the candidate's spend.
import type { EvalRun, JudgeRun } from "../records/index.ts";

/** `[start, end]` in epoch ms. */
export type Interval = readonly [number, number];

/** The interval of a record with `startedAt` and a duration; null while it runs or when either is unknown. */
export function intervalOf(
  record: { startedAt: string; elapsedMs: number | null } | null | undefined,
): Interval | null {
  if (!record || record.elapsedMs === null) return null;
  const start = Date.parse(record.startedAt);
  return Number.isFinite(start) ? [start, start + record.elapsedMs] : null;
}

/**
 * What a slot's judging spent and when its candidate and judge were active. A judgment decided early is the deciding
 * earlyStop check's, whose spend is counted once; spend is null when none of it is known.
 */
export function judgingOf(
  evalRun: Pick<EvalRun, "earlyStop" | "startedAt" | "elapsedMs"> | null,
  judgeRun: Pick<JudgeRun, "decidedEarly" | "costUSD" | "panel" | "startedAt" | "elapsedMs"> | null,
): { judgeCostUSD: number | null; intervals: Interval[] } {
  return { judgeCostUSD: judgeCostOf(evalRun, judgeRun), intervals: activeIntervals(evalRun, judgeRun) };
}

/**
 * What a slot's judging spent: each earlyStop check, then the judgment unless it was decided early; null when unknown.
 * A panel's judgment costs what all its judgments did, those reused from earlier judge runs too (a judge run's own
 * costUSD counts only what it spent).
 */
export function judgeCostOf(
  evalRun: Pick<EvalRun, "earlyStop"> | null,
  judgeRun: Pick<JudgeRun, "decidedEarly" | "costUSD" | "panel"> | null,
): number | null {
  // Summed in the order listed (each check, then the judgment) without listing them: a summary does this for every slot.
  let judgeCostUSD: number | null = null;
  for (const check of evalRun?.earlyStop?.checks ?? [])
    if (typeof check.costUSD === "number") judgeCostUSD = (judgeCostUSD ?? 0) + check.costUSD;
  const judging = judgeRun?.decidedEarly ? null : judgmentCost(judgeRun);
  if (typeof judging === "number") judgeCostUSD = (judgeCostUSD ?? 0) + judging;
  return judgeCostUSD;
}

function judgmentCost(judgeRun: Pick<JudgeRun, "costUSD" | "panel"> | null): number | undefined {
  if (!judgeRun?.panel) return judgeRun?.costUSD;
  return judgeRun.panel.reduce((total, judgment) => total + (judgment.costUSD ?? 0), 0);
}

/** When a slot's candidate and judge were active. */
export function activeIntervals(
  evalRun: Pick<EvalRun, "startedAt" | "elapsedMs"> | null,
  judgeRun: Pick<JudgeRun, "startedAt" | "elapsedMs"> | null,
): Interval[] {
  return [intervalOf(evalRun), intervalOf(judgeRun)].filter((interval) => interval !== null);
}

/** Total length of the union of `intervals`, in ms; null when there are none. */
export function unionMs(intervals: readonly Interval[]): number | null {
  if (intervals.length === 0) return null;
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = sorted[0]!;
  // By index, not over a copy of the rest with a pair per step: a model's intervals are two per slot.
  for (let index = 1; index < sorted.length; index++) {
    const [nextStart, nextEnd] = sorted[index]!;
    if (nextStart > end) {
      total += end - start;
      start = nextStart;
      end = nextEnd;
    } else end = Math.max(end, nextEnd);
  }
  return total + (end - start);
}
