// The candidate stage's public surface: run one isolated OpenCode session (process backend), pick its credentials,
// and archive what it left (native database, session exports). Other stages import only from here.
//
// The `process` backend is NOT a security sandbox: the agent runs as the current user and can read whatever that user
// can. Its isolation keeps the user's OpenCode config, instruction files and other providers' keys out of the run,
// and its process tree contained and killable; containment is the container backend's job.
//
// Order for one eval run: selectCredentials → runOpenCode → archiveDatabase → exportSessions (both read the live
// database in scratch; exports never touch the archive, whose sha256 must not change).

export { runOpenCode, type OpenCodeOutcome, type OpenCodeRequest } from "./run-opencode.ts";
export type { RunState } from "./run-tracker.ts";
export { prepareIsolation, type Isolation, type IsolationPaths } from "./isolated-env.ts";
export { selectCredentials, type CredentialRequest, type Credentials } from "./credentials.ts";
export { archiveDatabase, type ArchiveRequest, type ArchivedDatabase } from "./archive-database.ts";
export { exportSessions, type ExportRequest, type ExportedSession } from "./export-sessions.ts";
export { killProcessTree, type KillTarget } from "./process-tree.ts";
// Anything else a stage writes from a candidate run (final response, logs) must pass through this first.
export { redactSecrets } from "./redact.ts";
export { CandidateError, type CandidateErrorCode } from "./errors.ts";
export { executeCandidate, evalRunPaths, type CandidateRequest } from "./execute-candidate.ts";
