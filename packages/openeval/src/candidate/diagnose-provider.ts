// After the provider failed before the model finished its first step, the endpoint is checked again: a server that
// no longer answers is down (an infrastructure error: retry once it is up), one that answers was too slow for the
// time limit (a setup error: retrying with the same limit would time out again).
import type { EndpointProblem, OpenCodeOutcome } from "../opencode/index.ts";

/** A fresh check of the endpoint: its problem, "answers", or "unchecked" (a catalog provider, a control). */
export type EndpointCheck = EndpointProblem | "answers" | "unchecked";

export interface ProviderDiagnosis {
  error: string | null;
  setupError: boolean;
}

/**
 * @param timeLimit where the candidate's time limit is set, e.g. "candidate.timeoutMs in benchmark.ts".
 */
export async function diagnoseProvider(
  outcome: Pick<OpenCodeOutcome, "infrastructureError" | "setupError" | "waitedForFirstAnswer" | "error">,
  recheck: () => Promise<EndpointCheck>,
  timeLimit: { setting: string; ms: number; endpoint: string | null },
): Promise<ProviderDiagnosis> {
  const error = outcome.error ?? null;
  if (!outcome.infrastructureError || outcome.setupError) return { error, setupError: outcome.setupError };
  const problem = await recheck();
  if (problem === "unchecked") return { error, setupError: false };
  if (problem !== "answers")
    return {
      error: `${error ?? "The provider failed."} Checked again: ${problem.finding}. ${problem.remedy}`,
      setupError: problem.kind === "wrong_path",
    };
  if (!outcome.waitedForFirstAnswer) return { error, setupError: false };
  const endpoint = timeLimit.endpoint ? ` at ${timeLimit.endpoint}` : "";
  return {
    error:
      `${error} Checked again, the endpoint${endpoint} answers: the model is too slow for this limit, not down. Raise ${timeLimit.setting} above ${timeLimit.ms} ms for this model, ` +
      `then openeval retry this eval run (with the same limit it would time out again).`,
    setupError: true,
  };
}
