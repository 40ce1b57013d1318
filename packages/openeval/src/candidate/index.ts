// The candidate stage: one eval run of a candidate model as an isolated OpenCode session (process backend),
// given only its own provider's credentials, recorded as verified evidence → EvalRun.
export { candidateScratchPrefix, executeCandidate, evalRunPaths, type CandidateMonitor, type CandidateRequest } from "./execute-candidate.ts";
export type { TakeCheckpoint } from "./checkpoint.ts";
