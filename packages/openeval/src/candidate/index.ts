// The candidate stage: one eval run of a candidate model as an isolated OpenCode session — on this machine
// (process backend) or in a container with its network limited to its provider (container backend, the candidate
// image) — given only its own provider's credentials, recorded as verified evidence → EvalRun.
export { executeCandidate, evalRunPaths, type CandidateMonitor, type CandidateRequest } from "./execute-candidate.ts";
export type { TakeCheckpoint } from "./checkpoint.ts";
export type { EndpointCheck } from "./diagnose-provider.ts";
export type { PinnedRuntime, RuntimeEnvironment } from "./runtime/candidate-runtime.ts";
export {
  buildEnvironmentImage,
  findEnvironmentImage,
  type EnvironmentBuildOptions,
  type EnvironmentImage,
} from "./environment-image.ts";
export { candidateRuntime } from "./runtime/runtimes.ts";
export {
  buildCandidateImage,
  resolveCandidateImage,
  type CandidateImage,
  type CandidateImageOptions,
} from "./candidate-image.ts";
