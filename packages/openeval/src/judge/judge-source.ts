// What each judge source (judge.ts, judge.md, a task's tests/) hands back to the grading of an eval run, and what a
// run resolved once for ctx.verification: the types the sources and grade-eval-run.ts share.
import type { PanelCombineRule } from "../load/index.ts";
import type { CriterionScore, PanelJudgment, RunMetrics } from "../records/index.ts";
import type { VerificationLimits } from "../recording/index.ts";
import type { EngineOptions } from "../sandbox/index.ts";

/** What one judge source (judge.ts or judge.md) produced. */
export interface SourceOutcome {
  state: "completed" | "failed" | "timed_out" | "interrupted";
  /** null: the source returned no scores (unscored). */
  scores: Record<string, CriterionScore> | null;
  output?: unknown;
  error?: string;
  /** Model spend of this source (USD): the rubric judge's session; absent for code judges, which call no model. */
  costUSD?: number;
  /** The rubric judge session's metrics; absent for code judges and when its database could not be read. */
  metrics?: RunMetrics;
  /** It failed for the harness's reasons (a verifier that could not run), not the judge's. */
  infrastructureError?: boolean;
  /** The rubric's judgments, one per judge model and repeat, kept on the judge run. */
  panel?: PanelJudgment[];
  /** How they combined, when there is more than one. */
  combine?: PanelCombineRule;
}

/** What a run resolved once for ctx.verification: the pinned image, or why there is none. */
export interface VerificationSetup {
  image: string | null;
  unavailable: string | null;
  /** The engine verification runs on (plain data: it goes to the code-judge worker); a judge run placed on a pool engine gets that one. */
  engine: EngineOptions;
  limits: VerificationLimits;
}
