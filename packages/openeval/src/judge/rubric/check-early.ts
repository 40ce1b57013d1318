// earlyStop checks: the rubric judge in its early phase over a checkpoint of a running candidate. It
// either decides every criterion (the candidate is stopped) or continues; its free text is never read.
import { existsSync, readFileSync } from "node:fs";
import type { CriterionScore, RunMetrics } from "../../records/index.ts";
import { runJudgeSession, type JudgeSessionLimits, type RubricGraderOptions, type RubricTask } from "./grade-rubric.ts";
import { readJudgment } from "./read-judgment.ts";
import { ContinueArgsSchema } from "./schema.ts";

/** What one early check (earlyStop) concluded about a snapshot of a running candidate. */
export interface EarlyCheckResult {
  /** decided: every criterion is decided irreversibly (stop the candidate); continue: the judge wants more; failed: no usable answer. */
  outcome: "decided" | "continue" | "failed";
  scores: Record<string, CriterionScore> | null;
  /** The judge's reason to continue, or why the check failed. */
  reason: string | null;
  /** The judge session's recorded cost (USD); null when it never ran. */
  costUSD: number | null;
  /** The judge session's metrics; absent when it never ran or its database could not be read. */
  metrics?: RunMetrics;
}

/** An early check's limits: what is left of the eval's earlyStop budget (required), cancellation, process marker. */
export type EarlyCheckLimits = Required<Pick<JudgeSessionLimits, "maxCostUSD">> &
  Pick<JudgeSessionLimits, "signal" | "marker">;

/**
 * Runs one early check of a checkpoint.
 * @example const check = await checkEarly({ ...task, evidence: checkpoint }, join(checkDir, "rubric"), options, { maxCostUSD: 0.4 });
 */
export async function checkEarly(
  task: RubricTask,
  directory: string,
  options: RubricGraderOptions,
  limits: EarlyCheckLimits,
): Promise<EarlyCheckResult> {
  const session = await runJudgeSession(task, directory, options, { phase: "early", ...limits });
  if ("error" in session) return { outcome: "failed", scores: null, reason: session.error, costUSD: null };
  const costUSD = session.outcome.costUSD;
  const spent = { costUSD, ...(session.metrics ? { metrics: session.metrics } : {}) };
  const read = readJudgment(session.files, session.outcome, session.criteria);
  if (read.state === "completed") {
    const open = Object.entries(read.scores ?? {}).filter(([, score]) => score.value === null);
    if (read.scores === null || open.length > 0)
      return { outcome: "failed", scores: null, reason: "an early judgment left criteria undecided", ...spent };
    return { outcome: "decided", scores: read.scores, reason: null, ...spent };
  }
  const continued = readContinuation(session.files.continuation);
  if (continued !== null) return { outcome: "continue", scores: null, reason: continued, ...spent };
  return {
    outcome: "failed",
    scores: null,
    reason: read.error ?? "the early check ended without a decision",
    ...spent,
  };
}

/** The reason of an accepted continue_judging, or null when the check did not end that way. */
function readContinuation(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    return ContinueArgsSchema.parse(JSON.parse(readFileSync(file, "utf8"))).reason;
  } catch {
    return null;
  }
}
