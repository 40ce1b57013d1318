// earlyStop: while a Markdown-judged candidate runs, check fixed snapshots of its evidence with the rubric
// judge; once one check decides every criterion irreversibly, stop the candidate and make that judgment final.
// Checks wait for a free lane in the run's one work queue; the queue keeps a lane for them (see work-queue.ts).
import { join } from "node:path";
import { evalRunPaths, type CandidateMonitor, type TakeCheckpoint } from "../candidate/index.ts";
import type { EarlyCheckLimits, EarlyCheckResult } from "../judge/index.ts";
import type { EarlyStopPolicy } from "../load/index.ts";
import type { CriterionScore, EarlyCheck, EvalRun, JudgeRun, RunMetrics } from "../records/index.ts";

/** One check's judge: grades the snapshot at `checkpoint` into `directory` (absolute). */
export type EarlyJudge = (
  checkpoint: { directory: string; hash: string },
  directory: string,
  limits: EarlyCheckLimits,
) => Promise<EarlyCheckResult>;

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
  /** The deciding judge session's metrics, when measured. */
  metrics?: RunMetrics;
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
  const monitor = new Monitor(options);
  return {
    stop: monitor.stop.signal,
    onBoundary: (take) => monitor.onBoundary(take),
    finish: () => monitor.finish(),
    decision: () => monitor.decision,
  };
}

/** A check's outcome before it is numbered and timed. */
type CheckOutcome = Omit<EarlyCheck, "check" | "startedAt" | "elapsedMs" | "directory">;

/** One candidate's checks; each method is one step of a check's life. */
class Monitor {
  readonly stop = new AbortController();
  /** Aborted when the candidate ends: a check still running is told to give up. */
  private readonly cancel = new AbortController();
  private readonly now: () => number;
  private readonly checks: EarlyCheck[] = [];
  decision: EarlyDecision | null = null;
  private spentUSD = 0;
  private lastCheckAt: number;
  private scheduled = false;
  private inFlight: Promise<void> | null = null;
  private finished = false;

  constructor(private readonly options: EarlyStopMonitorOptions) {
    this.now = options.now ?? Date.now;
    this.lastCheckAt = this.now();
  }

  /** At a step boundary: queue one check, unless one is queued or running already, or none may run now. */
  onBoundary(take: TakeCheckpoint): void {
    if (this.scheduled || this.inFlight !== null || !this.mayCheck()) return;
    this.scheduled = true;
    this.options.schedule(async () => {
      this.inFlight = this.runCheck(take);
      await this.inFlight;
      this.inFlight = null;
    });
  }

  /** The candidate ended: cancel the running check, wait for it, and hand back every check. */
  async finish(): Promise<EarlyCheck[]> {
    this.finished = true;
    this.cancel.abort();
    await this.inFlight;
    return [...this.checks];
  }

  /** The policy's limits, and nothing decided or finished yet. */
  private mayCheck(): boolean {
    const { policy } = this.options;
    return (
      !this.finished &&
      this.decision === null &&
      this.checks.length < policy.maxChecks &&
      this.spentUSD < policy.maxCostUSD &&
      this.now() - this.lastCheckAt >= policy.minIntervalMs
    );
  }

  /** Snapshot, judge, record; any error becomes a failed check rather than the candidate's failure. */
  private async runCheck(take: TakeCheckpoint): Promise<void> {
    this.scheduled = false;
    if (!this.mayCheck()) return; // the candidate ended (or was decided) while the check waited for a lane
    this.lastCheckAt = this.now();
    const number = this.checks.length + 1;
    const directory = evalRunPaths(this.options.evalRunId).check(number);
    const started = this.now();
    let checkpoint: EarlyCheck["checkpoint"] = null;
    try {
      checkpoint = await this.takeSnapshot(take, directory);
      const result = await this.judge(checkpoint, directory);
      const check = this.record(number, directory, started, this.classify(result, checkpoint));
      this.decide(check, result);
    } catch (error) {
      const step = checkpoint === null ? "the snapshot could not be taken" : "the check could not run";
      this.record(number, directory, started, {
        outcome: "failed",
        reason: `${step}: ${(error as Error).message}`,
        costUSD: null,
        checkpoint,
      });
    }
  }

  /** Freezes the evidence under the check's directory; the checkpoint is relative to the run directory. */
  private async takeSnapshot(take: TakeCheckpoint, directory: string): Promise<NonNullable<EarlyCheck["checkpoint"]>> {
    const taken = await take(join(this.options.runDirectory, directory, "evidence"));
    return { directory: join(directory, "evidence"), hash: taken.hash };
  }

  /** Grades the snapshot within what is left of the cost budget, and counts what it cost. */
  private async judge(checkpoint: NonNullable<EarlyCheck["checkpoint"]>, directory: string): Promise<EarlyCheckResult> {
    const { runDirectory, policy } = this.options;
    const result = await this.options.judge(
      { directory: join(runDirectory, checkpoint.directory), hash: checkpoint.hash },
      join(runDirectory, directory, "rubric"),
      { maxCostUSD: policy.maxCostUSD - this.spentUSD, signal: this.cancel.signal },
    );
    this.spentUSD += result.costUSD ?? 0;
    return result;
  }

  /** A verdict other than "decided" that arrives after the candidate ended is recorded as cancelled. */
  private classify(result: EarlyCheckResult, checkpoint: EarlyCheck["checkpoint"]): CheckOutcome {
    const cancelled = this.cancel.signal.aborted && result.outcome !== "decided";
    const outcome = cancelled
      ? { outcome: "cancelled" as const, reason: "the candidate ended while this check ran" }
      : result;
    return { outcome: outcome.outcome, reason: outcome.reason, costUSD: result.costUSD, checkpoint };
  }

  private record(number: number, directory: string, started: number, result: CheckOutcome): EarlyCheck {
    const check: EarlyCheck = {
      check: number,
      startedAt: new Date(started).toISOString(),
      elapsedMs: this.now() - started,
      directory,
      ...result,
    };
    this.checks.push(check);
    this.options.onCheck?.(check);
    return check;
  }

  /** A decided check stops the candidate and becomes the decision; once the candidate has ended, nothing is decided. */
  private decide(check: EarlyCheck, result: EarlyCheckResult): void {
    if (result.outcome !== "decided" || !result.scores || this.finished) return;
    this.decision = { check, scores: result.scores, ...(result.metrics ? { metrics: result.metrics } : {}) };
    this.stop.abort();
  }
}

/** The decisive check's judgment as the slot's final judge run ("the decisive judgment is final"). */
export function decidedJudgeRun(
  evalRun: EvalRun,
  decision: EarlyDecision,
  identity: { judgeRunId: string; judgeFingerprint: string },
): JudgeRun {
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
    ...(decision.metrics ? { metrics: decision.metrics } : {}),
    decidedEarly: { check: check.check, checkpoint: check.checkpoint! },
  };
}
