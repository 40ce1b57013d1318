// earlyStop (SPEC §8.2): while a Markdown-judged candidate runs, check fixed snapshots of its evidence with the rubric
// judge; once one check decides every criterion irreversibly, stop the candidate and make that judgment final.
// Checks wait for a free lane in the run's one work queue; the queue keeps a lane for them (see work-queue.ts).
import { join } from "node:path";
import { evalRunPaths, type CandidateMonitor, type TakeCheckpoint } from "../candidate/index.ts";
import type { EarlyCheckLimits, EarlyCheckResult } from "../judge/index.ts";
import type { EarlyStopPolicy } from "../load/index.ts";
import type { CriterionScore, EarlyCheck, EvalRun, JudgeRun } from "../records/index.ts";

/** One check's judge: grades the snapshot at `checkpoint` into `directory` (absolute). */
export type EarlyJudge = (checkpoint: { directory: string; hash: string }, directory: string, limits: EarlyCheckLimits) => Promise<EarlyCheckResult>;

export interface EarlyStopMonitorOptions {
  policy: EarlyStopPolicy;
  runDirectory: string;
  evalRunId: string;
  /** Puts a check on the run's work queue; it runs when a lane is free. */
  schedule(check: () => Promise<void>): void;
  judge: EarlyJudge;
  onCheck?: (check: EarlyCheck) => void;
  now?: () => number;
}

/**
 * The RUN_MARKER of a check's judge processes: not the candidate's own (each session's exit sweep kills its marker,
 * and a check must not take the candidate with it), but derived from it so that recovery reaps both.
 */
export function checkMarker(evalRunId: string): string {
  return `${evalRunId}.check`;
}

/** The check that decided, with its judgment. */
export interface EarlyDecision {
  check: EarlyCheck;
  scores: Record<string, CriterionScore>;
}

export interface EarlyStopMonitor extends CandidateMonitor {
  decision(): EarlyDecision | null;
}

/**
 * @example
 * const monitor = createEarlyStopMonitor({ policy, runDirectory, evalRunId, schedule: enqueueCheck, judge });
 * const evalRun = await executeCandidate({ ...request, monitor });
 */
export function createEarlyStopMonitor(options: EarlyStopMonitorOptions): EarlyStopMonitor {
  const { policy } = options;
  const now = options.now ?? Date.now;
  const stop = new AbortController();
  const cancel = new AbortController();
  const checks: EarlyCheck[] = [];
  let decision: EarlyDecision | null = null;
  let spentUSD = 0;
  let lastCheckAt = now();
  let scheduled = false;
  let inFlight: Promise<void> | null = null;
  let finished = false;

  const mayCheck = () =>
    !finished && decision === null && checks.length < policy.maxChecks && spentUSD < policy.maxCostUSD && now() - lastCheckAt >= policy.minIntervalMs;

  const runCheck = async (take: TakeCheckpoint) => {
    scheduled = false;
    if (!mayCheck()) return; // the candidate ended (or was decided) while the check waited for a lane
    lastCheckAt = now();
    const number = checks.length + 1;
    const directory = evalRunPaths(options.evalRunId).check(number);
    const started = now();
    const record = (result: Omit<EarlyCheck, "check" | "startedAt" | "elapsedMs" | "directory">): EarlyCheck => {
      const check: EarlyCheck = { check: number, startedAt: new Date(started).toISOString(), elapsedMs: now() - started, directory, ...result };
      checks.push(check);
      options.onCheck?.(check);
      return check;
    };
    let checkpoint: EarlyCheck["checkpoint"] = null;
    try {
      const taken = await take(join(options.runDirectory, directory, "evidence"));
      checkpoint = { directory: join(directory, "evidence"), hash: taken.hash };
      const result = await options.judge(
        { directory: join(options.runDirectory, checkpoint.directory), hash: checkpoint.hash },
        join(options.runDirectory, directory, "rubric"),
        { maxCostUSD: policy.maxCostUSD - spentUSD, signal: cancel.signal },
      );
      spentUSD += result.costUSD ?? 0;
      const cancelled = cancel.signal.aborted && result.outcome !== "decided";
      const outcome = cancelled ? { outcome: "cancelled" as const, reason: "the candidate ended while this check ran" } : result;
      const check = record({ outcome: outcome.outcome, reason: outcome.reason, costUSD: result.costUSD, checkpoint });
      if (result.outcome === "decided" && result.scores && !finished) {
        decision = { check, scores: result.scores };
        stop.abort();
      }
    } catch (error) {
      const step = checkpoint === null ? "the snapshot could not be taken" : "the check could not run";
      record({ outcome: "failed", reason: `${step}: ${(error as Error).message}`, costUSD: null, checkpoint });
    }
  };

  return {
    stop: stop.signal,
    onBoundary(take) {
      if (scheduled || inFlight !== null || !mayCheck()) return;
      scheduled = true;
      options.schedule(async () => {
        inFlight = runCheck(take);
        await inFlight;
        inFlight = null;
      });
    },
    async finish() {
      finished = true;
      cancel.abort();
      await inFlight;
      return [...checks];
    },
    decision: () => decision,
  };
}

/** The decisive check's judgment as the slot's final judge run (SPEC §8.2: "the decisive judgment is final"). */
export function decidedJudgeRun(evalRun: EvalRun, decision: EarlyDecision, identity: { judgeRunId: string; judgeFingerprint: string }): JudgeRun {
  const { check } = decision;
  return {
    id: identity.judgeRunId,
    runId: evalRun.runId,
    evalRunId: evalRun.id,
    slot: evalRun.slot,
    kind: "rubric",
    state: "completed",
    judgeFingerprint: identity.judgeFingerprint,
    startedAt: check.startedAt,
    completedAt: new Date(Date.parse(check.startedAt) + check.elapsedMs).toISOString(),
    elapsedMs: check.elapsedMs,
    scores: decision.scores,
    unscored: false,
    error: null,
    directory: check.directory,
    ...(check.costUSD === null ? {} : { costUSD: check.costUSD }),
    decidedEarly: { check: check.check, checkpoint: check.checkpoint! },
  };
}
