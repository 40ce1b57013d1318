// The one set of words for how an eval run ended, shared by the summary, the event lines, JSON and the viewer: an
// integrity, preparation, setup or infrastructure error is never worded as the candidate's failure or its timeout.
import type { EvalRun } from "./schema.ts";

export type EvalRunOutcome =
  | "running"
  | "completed"
  | "integrity error"
  | "preparation error"
  | "setup error"
  | "infrastructure error"
  | "candidate failed"
  | "timed out"
  | "cost limited"
  | "token limited"
  | "step limited"
  | "stopped"
  | "interrupted";

const STATE_WORDS: Record<EvalRun["state"], EvalRunOutcome> = {
  running: "running",
  completed: "completed",
  failed: "candidate failed",
  timed_out: "timed out",
  cost_limited: "cost limited",
  token_limited: "token limited",
  step_limited: "step limited",
  stopped: "stopped",
  interrupted: "interrupted",
};

/**
 * @example describeOutcome({ state: "timed_out", infrastructureError: true }) // "infrastructure error"
 */
export function describeOutcome(
  run: Pick<EvalRun, "state" | "infrastructureError" | "setupError" | "preparationError"> &
    Partial<Pick<EvalRun, "integrityError">>,
): EvalRunOutcome {
  if (run.integrityError) return "integrity error";
  if (run.preparationError) return "preparation error";
  if (run.setupError) return "setup error";
  if (run.infrastructureError) return "infrastructure error";
  return STATE_WORDS[run.state];
}

/** The outcome as a sentence's start: "Infrastructure error". */
export function capitalizeOutcome(outcome: EvalRunOutcome): string {
  return outcome.charAt(0).toUpperCase() + outcome.slice(1);
}

/** An eval run that ended with a recording its candidate made (no infrastructure error, not failed or interrupted): a judge grades it. */
export function isJudgeable(evalRun: Pick<EvalRun, "infrastructureError" | "state" | "evidence">): boolean {
  return (
    !evalRun.infrastructureError &&
    evalRun.state !== "failed" &&
    evalRun.state !== "interrupted" &&
    evalRun.state !== "running" &&
    evalRun.evidence !== null
  );
}
