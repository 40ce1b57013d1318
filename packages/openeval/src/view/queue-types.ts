// The live queue answer: a run's latest invocation — running, queued and finished work with elapsed
// time, spend against --max-cost, and an ETA — read from the store while a runner writes to it.
import type { InvocationFinished } from "../records/index.ts";

export type { InvocationFinished };

export interface QueueItem {
  kind: "candidate" | "judge";
  evalId: string;
  model: string;
  /** The agent variant; absent for current. */
  variant?: string;
  /** `model`, or `model [variant]`: the candidate as reports name it. */
  candidate: string;
  repetition: number;
  /** The eval run (a candidate's, or the one a judge grades); null while queued. */
  evalRunId: string | null;
  judgeRunId: string | null;
  /** "queued", or the eval/judge run's state. */
  state: string;
  startedAt: string | null;
  completedAt: string | null;
  /** For running work: elapsed at `QueueAnswer.at`. */
  elapsedMs: number | null;
  costUSD: number | null;
}

export interface QueueList {
  total: number;
  /** The first LIST_LIMIT (finished: the latest first). */
  items: QueueItem[];
}

export interface QueueAnswer {
  /** Null when no runner recorded an invocation in this run (runs made before the queue was recorded). */
  invocation: {
    id: string;
    startedAt: string;
    pid: number;
    concurrency: number;
    maxCostUSD: number | null;
    estimateUSD: number | null;
  } | null;
  /** Server time of the answer (epoch ms): elapsed times and the ETA are as of then. */
  at: number;
  live: boolean;
  /** "running"; "finished" (with `summary`); "stopped": the runner went away before the end. */
  status: "running" | "finished" | "stopped" | "none";
  running: QueueList;
  queued: QueueList;
  finished: QueueList;
  failed: number;
  /** Spend of this invocation so far: candidates, judges and earlyStop checks; a lower bound when unknownCost > 0. */
  spendUSD: number;
  unknownCost: number;
  /** Time left, from the recorded durations of this run's work; null with `etaNote` when it cannot be told yet. */
  etaMs: number | null;
  etaNote: string | null;
  summary: InvocationFinished | null;
}
