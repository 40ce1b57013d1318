// The live queue of a run's latest invocation, from the store alone: the work its runner planned
// (recorded when it started), the eval and judge runs it has started since, and how long this run's finished work
// took. Queued = planned and not started, plus the judging that follows each finished candidate.
import { candidateName, isJudgeable, slotId, toSlotKey, type PlannedWork, type SlotKey } from "../records/index.ts";
import type { IndexedEvalRun, IndexedJudgeRun } from "../summary/index.ts";
import { median } from "../util/median.ts";
import type { QueueAnswer, QueueItem, QueueList } from "./queue-types.ts";
import type { RunIndex } from "./run-index.ts";

export const LIST_LIMIT = 100;

export function readQueue(index: RunIndex, now = Date.now()): QueueAnswer {
  const live = index.overview.live;
  const invocation = index.invocations.at(-1);
  const empty = { total: 0, items: [] };
  if (!invocation) {
    return {
      invocation: null,
      at: now,
      live,
      status: "none",
      running: empty,
      queued: empty,
      finished: empty,
      failed: 0,
      spendUSD: 0,
      unknownCost: 0,
      etaMs: null,
      etaNote: "No runner recorded its queue in this run.",
      summary: null,
    };
  }
  const { started } = invocation;
  const since = Date.parse(started.startedAt);
  const evalRuns = [...index.evalRuns.values()].filter((evalRun) => Date.parse(evalRun.startedAt) >= since);
  const judgeRuns = [...index.judgeRuns.values()].filter((judgeRun) => Date.parse(judgeRun.startedAt) >= since);
  const status = invocation.finished ? "finished" : live ? "running" : "stopped";

  const running = [
    ...evalRuns.filter((run) => run.state === "running").map((run) => candidateItem(run, now)),
    ...judgeRuns.filter((run) => run.state === "running").map((run) => judgeItem(run, now)),
  ];
  const finished = latestFinished(
    evalRuns.filter((run) => run.state !== "running"),
    judgeRuns.filter((run) => run.state !== "running"),
    now,
  );
  const queued = status === "running" ? queuedWork(invocation.work ?? [], evalRuns, judgeRuns) : [];

  const durations = typicalDurations(index);
  const eta = estimateRemaining(running, queued, durations, started.concurrency);
  const spend = spendOf(evalRuns, judgeRuns);
  return {
    invocation: {
      id: started.invocation,
      startedAt: started.startedAt,
      pid: started.pid,
      concurrency: started.concurrency,
      maxCostUSD: started.maxCostUSD,
      estimateUSD: started.estimateUSD,
    },
    at: now,
    live,
    status,
    running: list(running),
    queued: list(queued),
    finished: finished.list,
    failed: finished.failed,
    ...spend,
    ...(status === "running"
      ? eta
      : {
          etaMs: status === "finished" ? 0 : null,
          etaNote: status === "finished" ? null : "The runner stopped before this invocation finished.",
        }),
    summary: invocation.finished,
  };
}

function list(items: QueueItem[]): QueueList {
  return { total: items.length, items: items.slice(0, LIST_LIMIT) };
}

/**
 * The latest finished work, newest first, as a list of LIST_LIMIT, and how much of it failed. Sorted by an index into
 * the runs, so that only the listed ones become items, not one per eval run and judge run of a large finished run.
 */
function latestFinished(
  evalRuns: readonly IndexedEvalRun[],
  judgeRuns: readonly IndexedJudgeRun[],
  now: number,
): { list: QueueList; failed: number } {
  const ended = [...evalRuns, ...judgeRuns];
  const at = Float64Array.from(ended, (run) => Date.parse(run.completedAt ?? run.startedAt));
  // Newest first; equal times keep the order of the list (eval runs, then judge runs, each as recorded).
  const order = Uint32Array.from(ended.keys()).sort((a, b) => at[b]! - at[a]! || a - b);
  const items = Array.from(order.subarray(0, LIST_LIMIT), (position) =>
    position < evalRuns.length
      ? candidateItem(evalRuns[position]!, now)
      : judgeItem(judgeRuns[position - evalRuns.length]!, now),
  );
  const failed = ended.filter((run) => run.state !== "completed" && run.state !== "stopped").length;
  return { list: { total: ended.length, items }, failed };
}

function candidateItem(run: IndexedEvalRun, now: number): QueueItem {
  return {
    kind: "candidate",
    ...slotFields(run.slot),
    evalRunId: run.id,
    judgeRunId: null,
    state: run.state,
    startedAt: run.startedAt,
    completedAt: run.completedAt,
    elapsedMs: run.state === "running" ? now - Date.parse(run.startedAt) : run.elapsedMs,
    costUSD: run.metrics?.cost.usd ?? null,
  };
}

function judgeItem(run: IndexedJudgeRun, now: number): QueueItem {
  return {
    kind: "judge",
    ...slotFields(run.slot),
    evalRunId: run.evalRunId,
    judgeRunId: run.id,
    state: run.state,
    startedAt: run.startedAt,
    completedAt: run.completedAt,
    elapsedMs: run.state === "running" ? now - Date.parse(run.startedAt) : run.elapsedMs,
    costUSD: run.costUSD ?? null,
  };
}

/** A queue item's slot, named by its candidate so that a variant's work never reads as current's. */
function slotFields(slot: SlotKey): Pick<QueueItem, "evalId" | "model" | "variant" | "candidate" | "repetition"> {
  return { ...toSlotKey(slot), candidate: candidateName(slot) };
}

const slotOf = slotId;

function queuedWork(
  planned: readonly PlannedWork[],
  evalRuns: readonly IndexedEvalRun[],
  judgeRuns: readonly IndexedJudgeRun[],
): QueueItem[] {
  const candidates = new Set(evalRuns.map((run) => slotOf(run.slot)));
  const judged = new Set(judgeRuns.map((run) => slotOf(run.slot)));
  const judgedEvalRuns = new Set(judgeRuns.map((run) => run.evalRunId));
  const queued = (kind: QueueItem["kind"], slot: SlotKey, evalRunId: string | null): QueueItem => ({
    kind,
    ...slotFields(slot),
    evalRunId,
    judgeRunId: null,
    state: "queued",
    startedAt: null,
    completedAt: null,
    elapsedMs: null,
    costUSD: null,
  });
  // Judging first: the queue runs judges before candidates so that grading keeps up.
  const followUps = evalRuns
    .filter((run) => isJudgeable(run) && !judgedEvalRuns.has(run.id))
    .map((run) => queued("judge", run.slot, run.id));
  const judges = planned
    .filter((work) => work.kind === "judge" && !judged.has(slotOf(work)))
    .map((work) => queued("judge", work, null));
  const pending = planned
    .filter((work) => work.kind === "candidate" && !candidates.has(slotOf(work)))
    .map((work) => queued("candidate", work, null));
  return [...followUps, ...judges, ...pending];
}

interface Durations {
  candidate: (evalId: string) => number | null;
  judge: number | null;
}

/** Median recorded time of this run's finished work: candidates per eval (else over all evals), judges overall. */
function typicalDurations(index: RunIndex): Durations {
  const done = <T extends { state: string; elapsedMs: number | null }>(runs: Iterable<T>) =>
    [...runs].filter((run) => run.state !== "running" && run.state !== "interrupted" && run.elapsedMs !== null);
  const candidates = done(index.evalRuns.values());
  const byEval = Map.groupBy(candidates, (run) => run.slot.evalId);
  const overall = median(candidates.map((run) => run.elapsedMs!));
  const judge = median(
    done(index.judgeRuns.values())
      .filter((run) => run.decidedEarly === undefined)
      .map((run) => run.elapsedMs!),
  );
  return { candidate: (evalId) => median((byEval.get(evalId) ?? []).map((run) => run.elapsedMs!)) ?? overall, judge };
}

/**
 * Work left (queued, the rest of what runs, and the judging each candidate still needs) at this run's typical
 * durations, spread over the concurrency lanes. Unknown until some work of each kind has finished.
 */
function estimateRemaining(
  running: readonly QueueItem[],
  queued: readonly QueueItem[],
  durations: Durations,
  concurrency: number,
): { etaMs: number | null; etaNote: string | null } {
  let total = 0;
  const typical = (item: QueueItem) => (item.kind === "candidate" ? durations.candidate(item.evalId) : durations.judge);
  for (const item of [...running, ...queued]) {
    const estimate = typical(item);
    const judging = item.kind === "candidate" ? durations.judge : 0;
    if (estimate === null || judging === null)
      return {
        etaMs: null,
        etaNote: `known once a ${estimate === null ? item.kind : "judge"} of this run has finished`,
      };
    total += Math.max(estimate - (item.elapsedMs ?? 0), 0) + judging;
  }
  return { etaMs: total / concurrency, etaNote: null };
}

function spendOf(
  evalRuns: readonly IndexedEvalRun[],
  judgeRuns: readonly IndexedJudgeRun[],
): { spendUSD: number; unknownCost: number } {
  let spendUSD = 0;
  let unknownCost = 0;
  for (const run of evalRuns) {
    const cost = run.metrics?.cost.usd ?? null;
    if (cost === null && run.state !== "running") unknownCost += 1;
    spendUSD += cost ?? 0;
    for (const check of run.earlyStop?.checks ?? []) spendUSD += check.costUSD ?? 0;
  }
  // A decided-early judgment's spend is its check's, counted above.
  for (const run of judgeRuns) if (run.decidedEarly === undefined) spendUSD += run.costUSD ?? 0;
  return { spendUSD, unknownCost };
}
