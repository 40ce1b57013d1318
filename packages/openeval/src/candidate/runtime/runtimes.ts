// The name → implementation map of isolation backends (`process`: this machine; `container`: a container on an
// engine), the one place a backend is chosen. Callers name the backend; a new one (an engine pool, per-eval images)
// is one more entry here that passes the contract suite (runtime-contract.case.ts).
import type { Isolation } from "../../load/index.ts";
import type { CandidateRuntimeBackend } from "./candidate-runtime.ts";
import { containerRuntime } from "./container-runtime.ts";
import { processRuntime } from "./process-runtime.ts";

const RUNTIMES: Record<Isolation, CandidateRuntimeBackend> = {
  process: processRuntime,
  container: containerRuntime,
};

/**
 * @example
 * const runtime = await candidateRuntime("container").open({ ...options, pinned: await candidateRuntime("container").pin(settings.candidate) });
 */
export function candidateRuntime(isolation: Isolation): CandidateRuntimeBackend {
  return RUNTIMES[isolation];
}
