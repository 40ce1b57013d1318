// Driving the OpenCode binary headless and isolated: one session per call in its own HOME/XDG dirs and
// database, its process tree contained and killable, and what it leaves archived (native database, session
// exports) with secrets redacted. Candidate runs and rubric judges both run on this; stages import only here.
//
// It is NOT a security sandbox: the agent runs as the current user and can read whatever that user can. The
// isolation keeps the user's OpenCode config, instruction files and other providers' keys out of the run.
//
// Order for one session: runOpenCode → archiveDatabase → exportSessions (both read the live database in
// scratch; the export is built from it in-process and never opens the archive, whose sha256 must not change).
export {
  runOpenCode,
  RUN_MARKER,
  type LaunchedCommand,
  type Launcher,
  type OpenCodeOutcome,
  type OpenCodeRequest,
} from "./run-opencode.ts";
export type { RunState } from "./run-tracker.ts";
export type { ProviderPressure, ProviderSignal } from "./provider-signals.ts";
export type { StreamLedger, StreamStep, StreamToolCall, TokenCounts } from "./stream-ledger.ts";
export { prepareIsolation, seedConfigDir, type Isolation, type IsolationPaths } from "./isolated-env.ts";
export { archiveDatabase, snapshotDatabase, type ArchiveRequest, type ArchivedDatabase } from "./archive-database.ts";
export { exportSessions, type ExportRequest, type ExportedSession } from "./export-sessions.ts";
export { parseModelRef, type ModelRef } from "./model-id.ts";
export { createGitWorkspace } from "./git-workspace.ts";
export { findKnownSecrets, findSecretsIn, type KnownSecret } from "./known-secrets.ts";
export { selectCredentials, type CredentialRequest, type Credentials } from "./credentials.ts";
export { buildProviderConfig, CONTROL_PROVIDER, providerEndpoint } from "./provider-config.ts";
export { resolveOpenCodeBinary } from "./opencode-command.ts";
export {
  checkEndpoint,
  describeEndpointProblem,
  preflightTarget,
  type EndpointProblem,
  type PreflightTarget,
} from "./preflight.ts";
export { serveOpenCode, type OpenCodeClient, type OpenCodeServer } from "./serve-opencode.ts";
// Anything else a stage writes from a session (final response, logs) must pass through this first.
export { redactBytes, redactSecrets } from "./redact.ts";
export { OpenCodeError, type OpenCodeErrorCode } from "./errors.ts";
