// One eval run, end to end: seed the workspace, run OpenCode isolated, then turn what it left behind into a
// verified recording (snapshots, archived database, session exports, events, metrics) and a finalized EvalRun.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  caseOf,
  CURRENT_VARIANT,
  PREPARE_STEP_TIMEOUT_MS,
  type BenchmarkSettings,
  type EvalDefinition,
  type Isolation,
  type VariantDefinition,
} from "../load/index.ts";
import { captureDirectory, writeNativeRecording, type Snapshot, type ToolCallText } from "../recording/index.ts";
import {
  describeRecordingIntegrity,
  type EarlyCheck,
  type EvalRun,
  type EvalRunFinding,
  type PreparationError,
  type SlotKey,
} from "../records/index.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import {
  buildProviderConfig,
  createGitWorkspace,
  describeEndpointProblem,
  prepareIsolation,
  providerEndpoint,
  redactBytes,
  runOpenCode,
  selectCredentials,
  type EndpointProblem,
  type Isolation as OpenCodeIsolation,
  type OpenCodeOutcome,
  type ProviderSignal,
} from "../opencode/index.ts";
import { diagnoseProvider, type EndpointCheck } from "./diagnose-provider.ts";
import type { TakeCheckpoint } from "./checkpoint.ts";
import { layVariant, variantConfig } from "./variant-setup.ts";
import { prepareWorkspace, type PreparationFailure } from "./prepare-workspace.ts";
import type { CandidateRuntime, PinnedRuntime } from "./runtime/candidate-runtime.ts";
import { ORACLE_SOLUTION_FOLDER } from "./container/container-layout.ts";
import { candidateRuntime } from "./runtime/runtimes.ts";
import { checkoutPaths, seedCheckout } from "./seed-checkout.ts";
import { isControlModel, ORACLE_CONTROL } from "../util/control-model.ts";
import { isPriced } from "../util/model-pricing.ts";
import { createScratchDir, removeScratchDir } from "../util/scratch-dir.ts";

export interface CandidateRequest {
  runId: string;
  runDirectory: string;
  evalRunId: string;
  slot: SlotKey;
  evaluation: EvalDefinition;
  /** The agent setup this slot runs with; default current (no overrides). */
  variant?: VariantDefinition;
  settings: BenchmarkSettings;
  candidateFingerprint: string;
  /** Where it runs: the backend, and what the run pinned for it (the candidate image and its engine). */
  isolation: Isolation;
  pinned: PinnedRuntime;
  /** Base URL of the control server for this eval; needed for `control/*` models. */
  controlBaseURL: string | null;
  signal?: AbortSignal;
  onEvent?: (event: unknown) => void;
  /** Each model request sent or failed and each step answered, live: what paces the provider's candidates. */
  onProviderSignal?: (signal: ProviderSignal) => void;
  /** earlyStop: checks on snapshots while the candidate runs, and may stop it. */
  monitor?: CandidateMonitor;
  /** Why this eval's candidates cannot start (its environment did not build): recorded as a setup error. */
  setupProblem?: string | null;
  /** Set when the model's endpoint failed its preflight: the run is recorded as that error, and nothing starts. */
  endpointProblem?: EndpointProblem;
  /** Checks the model's endpoint again, after its provider failed before the model's first step. */
  recheckEndpoint?: () => Promise<EndpointCheck>;
  /**
   * The engine of the pool it was placed on: recorded, and asked after a failure whether it was lost (then the run
   * is interrupted work, never the candidate's failure).
   */
  engine?: { name: string; lost(): Promise<string | null> };
  /** Set when no engine could take it (every engine of the pool lost): recorded as interrupted, nothing runs. */
  interruptedBy?: string;
  /** Called with the running record before OpenCode starts, then with the final one. */
  save(evalRun: EvalRun): void;
}

/** What watches a running candidate for earlyStop; it cannot steer the candidate, only stop it. */
export interface CandidateMonitor {
  /** At each evidence boundary (a tool call finished, a model step ended), with a way to snapshot the live run. */
  onBoundary(takeCheckpoint: TakeCheckpoint): void;
  /** Aborted once a check decided every criterion: the run ends `stopped`. */
  stop: AbortSignal;
  /** After OpenCode exited, before the final record: ends any check in flight and returns the checks to keep. */
  finish(): Promise<EarlyCheck[]>;
}

/** OpenCode's event stream as the harness read it, in the eval run's logs. */
const EVENTS_FILE = "opencode-events.jsonl";

/** Paths of an eval run's folder, relative to the run directory. */
export function evalRunPaths(evalRunId: string) {
  const root = join("eval-runs", evalRunId);
  return {
    root,
    evidence: join(root, "evidence"),
    logs: join(root, "logs"),
    check: (check: number) => join(root, "checks", String(check)),
  };
}

export async function executeCandidate(request: CandidateRequest): Promise<EvalRun> {
  const { evaluation, slot, settings } = request;
  const timeoutMs = evaluation.settings.timeoutMs ?? settings.candidate.timeoutMs;
  const running: EvalRun = {
    id: request.evalRunId,
    runId: request.runId,
    slot,
    control: isControlModel(slot.model),
    state: "running",
    infrastructureError: false,
    error: null,
    startedAt: new Date().toISOString(),
    completedAt: null,
    elapsedMs: null,
    input: {
      candidateFingerprint: request.candidateFingerprint,
      prompt: evaluation.prompt.text,
      timeoutMs,
      maxCostUSD: settings.candidate.maxCostUSD ?? null,
      // Only when set: records made without them read as before.
      ...(settings.candidate.maxTokens === undefined ? {} : { maxTokens: settings.candidate.maxTokens }),
      ...(settings.candidate.maxSteps === undefined ? {} : { maxSteps: settings.candidate.maxSteps }),
      opencodeVersion: OPENCODE_VERSION,
      isolation: request.isolation,
      ...(request.engine ? { engine: request.engine.name } : {}),
    },
    evidence: null,
    metrics: null,
  };
  request.save(running);
  if (request.interruptedBy) return finishFailed(request, running, request.interruptedBy, { interrupted: true });
  if (request.setupProblem) return finishFailed(request, running, request.setupProblem, { setupError: true });
  const problem = request.endpointProblem;
  if (problem)
    return finishFailed(request, running, describeEndpointProblem(problem), {
      setupError: problem.kind === "wrong_path",
    });

  // Scratch (HOME, auth entry, live database, workspace) lives outside results/ and is removed afterwards.
  const scratch = await createScratchDir(request.evalRunId);
  let ran: OpenCodeOutcome | null = null;
  try {
    return await record(request, running, scratch, timeoutMs, (outcome) => (ran = outcome));
  } catch (error) {
    const lost = await engineLost(request);
    if (lost) return finishFailed(request, running, lost, { interrupted: true });
    // What the session itself ended with (e.g. the provider's rejection) is the cause; keep it before the harness's own failure.
    const outcome = ran as OpenCodeOutcome | null;
    const cause = outcome?.error ? `${outcome.error} — and ` : "";
    const message = `${cause}The harness could not run or record this candidate: ${(error as Error).message}`;
    // Cut short by the runner's interruption, it is retryable work like any interrupted run, not a failure.
    return finishFailed(request, running, message, {
      setupError: outcome?.setupError ?? false,
      interrupted: request.signal?.aborted === true,
    });
  } finally {
    // Idempotent; after a failure it still ends a check in flight before its workspace disappears.
    await request.monitor?.finish();
    await removeScratchDir(scratch);
  }
}

/** Why the run was cut short by its engine (`Interrupted: engine "b" lost: …`), when it was; null otherwise. */
async function engineLost(request: CandidateRequest): Promise<string | null> {
  const lost = await request.engine?.lost();
  return lost ? `Interrupted: ${lost}` : null;
}

/** An eval run that ended without a recording (nothing ran, or it could not be recorded): an infrastructure error,
 * or interrupted work when the runner was stopping. */
function finishFailed(
  request: CandidateRequest,
  running: EvalRun,
  error: string,
  cause: { setupError?: boolean; interrupted?: boolean; preparationError?: PreparationError } = {},
): EvalRun {
  const failed: EvalRun = {
    ...running,
    state: cause.interrupted ? "interrupted" : "failed",
    infrastructureError: !cause.interrupted,
    ...(cause.setupError ? { setupError: true } : {}),
    ...(cause.preparationError ? { preparationError: cause.preparationError } : {}),
    error,
    completedAt: new Date().toISOString(),
    elapsedMs: Date.now() - Date.parse(running.startedAt),
  };
  request.save(failed);
  return failed;
}

/** Runs the eval's prepare steps where the candidate will run. */
function prepare(
  request: CandidateRequest,
  where: { workspace: string; env: Record<string, string>; secrets: string[] },
  runtime: CandidateRuntime,
): Promise<PreparationFailure | null> {
  const steps = request.evaluation.settings.prepare;
  if (steps.length === 0) return Promise.resolve(null);
  const logPath = join(evalRunPaths(request.evalRunId).logs, "prepare.log");
  const options = {
    ...where,
    logFile: join(request.runDirectory, logPath),
    logPath,
    ...(request.signal ? { signal: request.signal } : {}),
  };
  return runtime.prepare(where.workspace, (runStep) => prepareWorkspace(steps, { ...options, runStep }));
}

async function record(
  request: CandidateRequest,
  running: EvalRun,
  scratch: string,
  timeoutMs: number,
  onOutcome: (outcome: OpenCodeOutcome) => void,
): Promise<EvalRun> {
  const { evaluation, slot, settings, runDirectory } = request;
  const paths = evalRunPaths(request.evalRunId);
  const evidenceDirectory = join(runDirectory, paths.evidence);
  const workspace = join(scratch, "workspace");
  const opencodeScratch = join(scratch, "opencode");
  const isolation = await prepareIsolation(opencodeScratch);
  const variant = request.variant ?? CURRENT_VARIANT;
  const credentials = await selectCredentials({
    model: slot.model,
    environment: process.env,
    providers: settings.candidate.providers,
  });
  const providers = buildProviderConfig(slot.model, settings.candidate.providers, request.controlBaseURL);
  const endpoint = providerEndpoint(slot.model, providers);
  const runtime = await candidateRuntime(request.isolation).open({
    runId: request.runId,
    evalRunId: request.evalRunId,
    scratch,
    workspace,
    logs: join(runDirectory, paths.logs),
    timeoutMs,
    preparationMs: evaluation.settings.prepare.length * PREPARE_STEP_TIMEOUT_MS,
    candidate: settings.candidate,
    endpoint,
    secrets: credentials.secrets,
    pinned: request.pinned,
    solution: oracleSolution(request),
  });
  const ran = await layStart(request, runtime, { workspace, configDir: join(isolation.paths.config, "opencode") })
    .then(() =>
      runSession(request, runtime, {
        workspace,
        opencodeScratch,
        isolation,
        credentials,
        providers,
        endpoint,
        variant,
        timeoutMs,
        running,
      }),
    )
    .finally(() => runtime.close());
  if (ran.kind === "unprepared") {
    const lost = await engineLost(request);
    if (lost) return finishFailed(request, running, lost, { interrupted: true });
    // Cut short by the runner's interruption, it is interrupted work, not a preparation error.
    if (request.signal?.aborted)
      return finishFailed(request, running, "Interrupted while the eval's prepare steps ran", { interrupted: true });
    return finishFailed(request, running, ran.failure.message, { preparationError: ran.failure.preparation });
  }
  const { initial, outcome } = ran;
  onOutcome(outcome);

  const checks = await request.monitor?.finish();
  const egressRefused = await runtime.refusedConnections();
  const { evidence, metrics, native, integrity } = await writeNativeRecording({
    directory: evidenceDirectory,
    kind: "candidate",
    prompt: evaluation.prompt.text,
    initial,
    // The agent can write its own key to disk (it has it in its environment): snapshots are redacted too.
    captureFinal: () =>
      captureDirectory(
        workspace,
        evidenceDirectory,
        (data) => redactBytes(data, credentials.secrets),
        settings.evidence,
        runtime.notCopied(workspace),
      ),
    liveDatabase: outcome.databasePath,
    secrets: credentials.secrets,
    elapsedMs: outcome.elapsedMs,
    extract: {
      priced: isPriced(slot.model, settings.candidate.providers),
      streamErrors: outcome.stepErrors,
      retries: outcome.retries,
    },
    reportedSessionID: outcome.sessionID,
    stream: { ledger: outcome.stream, killed: outcome.killed },
  });

  const integrityError =
    integrity && integrity.mismatches.length > 0
      ? {
          stream: join(paths.logs, EVENTS_FILE),
          database: join(paths.evidence, integrity.database),
          mismatches: integrity.mismatches,
        }
      : null;
  const diagnosis = request.recheckEndpoint
    ? await diagnoseProvider(outcome, request.recheckEndpoint, {
        setting: timeLimitSetting(request.evaluation),
        ms: timeoutMs,
        endpoint,
      })
    : { error: outcome.error ?? null, setupError: outcome.setupError };
  // A session cut off by its engine going away is interrupted work, whatever it managed to record.
  if (outcome.infrastructureError || outcome.state === "interrupted") {
    const lost = await engineLost(request);
    if (lost) return finishFailed(request, running, lost, { interrupted: true });
  }
  const finalRun: EvalRun = {
    ...running,
    state: outcome.state,
    // A forged recording is never judged or scored, whatever the run did.
    infrastructureError: outcome.infrastructureError || integrityError !== null,
    ...(diagnosis.setupError ? { setupError: true } : {}),
    ...(integrityError ? { integrityError } : {}),
    error: integrityError
      ? [describeRecordingIntegrity(integrityError), diagnosis.error].filter(Boolean).join(" The run itself: ")
      : diagnosis.error,
    completedAt: outcome.completedAt,
    elapsedMs: outcome.elapsedMs,
    evidence: { directory: paths.evidence, hash: evidence.hash },
    metrics,
    ...(native.toolCallText.length > 0 ? { findings: [toolCallTextFinding(native.toolCallText)] } : {}),
    ...(checks ? { earlyStop: { checks } } : {}),
    ...(egressRefused ? { egressRefused } : {}),
    agentPaths: agentPaths(request, runtime, workspace, isolation.paths),
  };
  request.save(finalRun);
  return finalRun;
}

/** The workspace and the agent's own folders as its tools saw them (for the integrity check). */
function agentPaths(
  request: CandidateRequest,
  runtime: CandidateRuntime,
  workspace: string,
  own: { home: string; tmp: string },
): NonNullable<EvalRun["agentPaths"]> {
  const seen = runtime.agent.seenAs ?? ((path: string) => path);
  const folders = [seen(own.home), seen(own.tmp), ...(runtime.agent.sharedFolders ?? [])];
  if (oracleSolution(request)) folders.push(ORACLE_SOLUTION_FOLDER);
  return { workspace: seen(workspace), own: [...new Set(folders)] };
}

/**
 * The starting workspace, before the initial snapshot: the eval's files (or repository checkout), or its
 * environment's working directory, where the runtime brings its own; then a variant's workspace files.
 */
async function layStart(
  request: CandidateRequest,
  runtime: CandidateRuntime,
  where: { workspace: string; configDir: string },
): Promise<void> {
  const { evaluation } = request;
  const checkout = evaluation.workspace.git;
  const overlay = caseOf(evaluation, request.slot.case)?.overlay;
  await runtime.layWorkspace(async () => {
    await createGitWorkspace(where.workspace, evaluation.workspace.directory, {
      ...(checkout ? { exclude: checkoutPaths(checkout) } : {}),
      ...(overlay ? { overlays: [join(evaluation.directory, overlay.path)] } : {}),
    });
    if (checkout) await seedCheckout(where.workspace, checkout, evaluation.directory);
  });
  await layVariant(request.variant ?? CURRENT_VARIANT, where);
}

interface SessionSetup {
  workspace: string;
  opencodeScratch: string;
  isolation: OpenCodeIsolation;
  credentials: Awaited<ReturnType<typeof selectCredentials>>;
  providers: ReturnType<typeof buildProviderConfig>;
  endpoint: ReturnType<typeof providerEndpoint>;
  variant: VariantDefinition;
  timeoutMs: number;
  running: EvalRun;
}

/** In the candidate's runtime: eval.ts prepare, the initial snapshot, then the OpenCode session (watched by the monitor). */
async function runSession(
  request: CandidateRequest,
  runtime: CandidateRuntime,
  setup: SessionSetup,
): Promise<
  { kind: "unprepared"; failure: PreparationFailure } | { kind: "ran"; initial: Snapshot; outcome: OpenCodeOutcome }
> {
  const { evaluation, slot, settings, runDirectory } = request;
  const { workspace, opencodeScratch, isolation, credentials, providers, endpoint, variant, timeoutMs, running } =
    setup;
  const paths = evalRunPaths(request.evalRunId);
  const evidenceDirectory = join(runDirectory, paths.evidence);
  // eval.ts prepare, in the candidate's isolation, before the initial snapshot: its output is the starting state.
  const prepared = await prepare(request, { workspace, env: isolation.env, secrets: credentials.secrets }, runtime);
  if (prepared) return { kind: "unprepared", failure: prepared };
  const initial = await captureDirectory(workspace, evidenceDirectory, undefined, settings.evidence);

  const session = variantConfig(variant, { provider: providers });
  const { monitor } = request;
  const live = {
    workspace,
    databasePath: isolation.paths.database,
    prompt: evaluation.prompt.text,
    initial,
    evidenceDirectory,
    secrets: credentials.secrets,
    limits: settings.evidence,
    startedAt: Date.parse(running.startedAt),
  };
  const takeCheckpoint: TakeCheckpoint = runtime.checkpoint(live);
  const outcome = await runOpenCode({
    ...runtime.agent,
    scratchDir: opencodeScratch,
    workspace,
    prompt: evaluation.prompt.text,
    model: slot.model,
    config: session.config,
    ...(session.agent ? { agent: session.agent } : {}),
    credentials,
    timeoutMs,
    maxCostUSD: settings.candidate.maxCostUSD,
    maxTokens: settings.candidate.maxTokens,
    maxSteps: settings.candidate.maxSteps,
    endpoint,
    signal: request.signal,
    onEvent: request.onEvent,
    onProviderSignal: request.onProviderSignal,
    ...(monitor ? { stop: monitor.stop, onBoundary: () => monitor.onBoundary(takeCheckpoint) } : {}),
    eventsFile: join(runDirectory, paths.logs, EVENTS_FILE),
    stderrFile: join(runDirectory, paths.logs, "opencode-stderr.log"),
    secrets: credentials.secrets,
    marker: request.evalRunId,
  });
  return { kind: "ran", initial, outcome };
}

/** The run's tool-call-shaped texts as one finding, citing the first. */
function toolCallTextFinding(found: readonly ToolCallText[]): EvalRunFinding {
  const [first] = found;
  return {
    kind: "tool_call_text",
    count: found.length,
    messageID: first!.messageID,
    shape: first!.shape,
    excerpt: first!.excerpt,
  };
}

/** The oracle control runs the task's own solution/solve.sh: its solution/ goes into its container (and no other's). */
function oracleSolution({ slot, evaluation }: CandidateRequest): string | null {
  const solution = join(evaluation.directory, "solution");
  return slot.model === ORACLE_CONTROL && evaluation.environment && existsSync(solution) ? solution : null;
}

/** Where the candidate's time limit of this eval is set. */
function timeLimitSetting(evaluation: EvalDefinition): string {
  return evaluation.settings.timeoutMs === undefined
    ? "candidate.timeoutMs in benchmark.ts"
    : `the candidate timeoutMs of eval "${evaluation.id}"`;
}
