// Runs one OpenCode agent session for a candidate, isolated under a scratch dir, within its time and cost limits,
// streaming its events (redacted) to disk and to an observer. Why `opencode run` and not `serve` + SDK: one process
// and one exit code per run, no port/SSE/idle choreography, and "ask" prompts cannot block.

import { randomUUID } from "node:crypto";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Isolation, prepareIsolation } from "./isolated-env.ts";
import { parseModelRef } from "./model-id.ts";
import { buildConfigContent, buildRunArgs, resolveOpenCodeBinary } from "./opencode-command.ts";
import { type ConfinedCommand, confineCommand, killProcessTree, tieToRunner } from "../sandbox/index.ts";
import { readLines } from "./read-lines.ts";
import { redactSecrets } from "./redact.ts";
import { hasModelOutput, hasToolCall, readRootSessionID } from "./native-database.ts";
import {
  type KillReason,
  type RunLimits,
  type RunState,
  type RunTracker,
  type StepError,
  createRunTracker,
  classifyEnding,
  observeEvent,
  observeLogLine,
  passedLimit,
} from "./run-tracker.ts";
import { type RunEvent, RunEventSchema } from "./schema.ts";
import { type ProviderSignal, readProviderSignal } from "./provider-signals.ts";
import type { StreamLedger } from "./stream-ledger.ts";
import { recordPhase } from "../util/phase-timing.ts";

/** `maxCostUSD`, `maxTokens` and `maxSteps` (RunLimits) stop the session as soon as its event stream passes them. */
export interface OpenCodeRequest extends RunLimits {
  scratchDir: string;
  /** Absolute path, already a git repository (so OpenCode's upward AGENTS.md/config walk stops there). */
  workspace: string;
  /** Passed verbatim on stdin. */
  prompt: string;
  /** `provider/model[#variant]`. */
  model: string;
  /** Inline OpenCode config (providers etc.); the harness adds its enforced keys on top. */
  config: Record<string, unknown>;
  /** The agent the session runs as (`--agent`, defined in `config.agent`); default OpenCode's build agent. */
  agent?: string;
  credentials: { env: Record<string, string>; auth: Record<string, unknown> | null };
  timeoutMs: number;
  /** The provider's configured endpoint, named when the provider fails; null for a catalog provider. */
  endpoint?: string | null;
  signal?: AbortSignal;
  /** Aborted when the harness ends the run on purpose before it finishes (earlyStop): the state is `stopped`. */
  stop?: AbortSignal;
  /** Each event line, parsed, after redaction. An observer that throws does not affect the run. */
  onEvent?: (event: unknown) => void;
  /** At each evidence boundary: a tool call finished, or a model step ended without calling tools. */
  onBoundary?: () => void;
  /** Each model request sent or failed (from the log) and each step answered, as it happens: the provider's load. */
  onProviderSignal?: (signal: ProviderSignal) => void;
  eventsFile: string;
  stderrFile: string;
  secrets: string[];
  /**
   * Put in every process of the session's environment as OPENEVAL_RUN_MARKER, so that a later process can find
   * and reap them (killProcessTree) if this runner dies; default: a random value.
   */
  marker?: string;
  /**
   * Folders outside the workspace that OpenCode's file tools may use, as the session sees them (the container's /tmp
   * and its tool user's HOME); everything else outside the workspace is denied them. Default none.
   */
  sharedFolders?: string[];
  /** Override the pinned binary (tests, or a user-pinned install). */
  opencodeBinary?: string;
  /** Default true: confine the run in a PID namespace when this machine allows it; false forces the /proc walk. */
  pidNamespace?: boolean;
  /**
   * Starts OpenCode somewhere else than this machine (a candidate container). It gets the host's argv, cwd and env
   * and must make the session's files (database, workspace) readable at their host paths once `collect` resolves.
   */
  launch?: Launcher;
}

/** A started OpenCode process, wherever it runs. */
export interface LaunchedCommand {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  /** The exit code, null when killed. */
  exited: Promise<number | null>;
  /**
   * Brings the session's files (database, workspace) back to their host paths; called once after exit, outside the
   * time limit, so that a slow copy never turns an answered run into a timed-out one.
   */
  collect?: () => Promise<void>;
  /** Kills the whole tree, including what the agent detached. */
  kill(): Promise<void>;
}

export type Launcher = (command: {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
}) => Promise<LaunchedCommand>;

export interface OpenCodeOutcome {
  state: RunState;
  /** The failure was OpenCode's or the provider's, not the candidate's: recorded, retryable, never scored. */
  infrastructureError: boolean;
  /** The model's context cannot hold the session's requests (an infrastructure error of the model's setup). */
  setupError: boolean;
  /** Killed by the time limit while the model had not finished its first answer. */
  waitedForFirstAnswer: boolean;
  /** Errors OpenCode reported in its event stream, in order (rejected attempts keep no error in the database). */
  stepErrors: StepError[];
  /** Requests OpenCode sent again after a failed attempt (its retries), from its log. */
  retries: number;
  error?: string;
  exitCode: number | null;
  startedAt: string;
  completedAt: string;
  elapsedMs: number;
  sessionID: string | null;
  /** Sum of the root session's step costs seen in the event stream (USD). */
  costUSD: number;
  /** Every step's usage and tool call the event stream showed (read on this machine, out of the agent's reach). */
  stream: StreamLedger;
  /** The harness or a signal ended the process: the stream may lack its last lines, the database its last writes. */
  killed: boolean;
  /** The live database in scratch; archive it with archiveDatabase once this resolves. */
  databasePath: string;
  /** How the process tree was confined and killed. */
  confinement: ConfinedCommand["confinement"] | "container";
}

export const RUN_MARKER = "OPENEVAL_RUN_MARKER";

/** How long to wait for stdout/stderr to drain after exit and the stray sweep; nothing should hold them by then. */
const DRAIN_GRACE_MS = 5_000;

/**
 * @example
 * const outcome = await runOpenCode({ scratchDir, workspace, prompt, model: "control/positive", config,
 *   credentials: { env: {}, auth: null }, timeoutMs: 60_000, eventsFile, stderrFile, secrets: [] });
 */
export async function runOpenCode(request: OpenCodeRequest): Promise<OpenCodeOutcome> {
  const started = Date.now();
  const setupStart = performance.now();
  const model = parseModelRef(request.model);
  const isolation = await prepareIsolation(request.scratchDir);
  await writeAuthEntry(isolation, model.provider, request.credentials.auth);
  await mkdir(dirname(request.eventsFile), { recursive: true });
  await mkdir(dirname(request.stderrFile), { recursive: true });

  const marker = { name: RUN_MARKER, value: request.marker ?? randomUUID() };
  const binary = request.opencodeBinary ?? resolveOpenCodeBinary();
  const argv = [binary, ...buildRunArgs(request.workspace, model, request.agent)];
  const command = request.launch
    ? { argv, confinement: "container" as const }
    : await confineCommand(argv, { preferNamespace: request.pidNamespace ?? true });
  const tracker = createRunTracker();
  const finish = (exitCode: number | null, killReason: KillReason | null, spawnError?: string): OpenCodeOutcome => {
    const limits = {
      timeoutMs: request.timeoutMs,
      maxCostUSD: request.maxCostUSD,
      maxTokens: request.maxTokens,
      maxSteps: request.maxSteps,
      model: request.model,
      endpoint: request.endpoint ?? null,
    };
    const verdict = classifyEnding(tracker, { killReason, exitCode, spawnError, ...limits });
    const completed = Date.now();
    return {
      ...verdict,
      exitCode,
      startedAt: new Date(started).toISOString(),
      completedAt: new Date(completed).toISOString(),
      elapsedMs: completed - started,
      sessionID: tracker.sessionID ?? readRootSessionID(isolation.paths.database),
      costUSD: tracker.costUSD,
      stream: tracker.ledger,
      killed: killReason !== null || exitCode === null,
      stepErrors: tracker.stepErrors,
      retries: tracker.retries,
      databasePath: isolation.paths.database,
      confinement: command.confinement,
    };
  };

  // An already-aborted run never starts.
  if (request.signal?.aborted) return finish(null, "interrupted");
  // Phases for `npm run bench`: set-up, launch, OpenCode's start (to its first event), the session, after its exit.
  const phase = (name: string, startMs: number) => recordPhase(marker.value, `opencode.${name}`, startMs);
  phase("setup", setupStart);
  const launching = performance.now();
  let child: LaunchedCommand;
  try {
    child = await launchSession(request, command.argv, sessionEnv(request, isolation, marker), marker);
  } catch (cause) {
    await Promise.all([writeFile(request.eventsFile, ""), writeFile(request.stderrFile, "")]);
    return finish(null, null, `OpenCode could not be started: ${String(cause)}`);
  }
  const launched = performance.now();
  phase("launch", launching);
  const limits = enforceLimits(child, request);
  let firstEvent: number | null = null;
  const streamed = streamOutput(child, request, tracker, limits.kill, () => {
    if (firstEvent !== null) return;
    firstEvent = performance.now();
    phase("first-event", launched);
  });

  // Wait for exit, then sweep strays (a no-op inside a PID namespace, which died with OpenCode).
  const exitCode = await child.exited;
  phase("session", firstEvent ?? launched);
  const exited = performance.now();
  const killReason = limits.end();
  await killProcessTree({ marker: `${marker.name}=${marker.value}` });
  await streamed.drain();
  phase("after-exit", exited);
  const collecting = performance.now();
  await child.collect?.();
  phase("collect", collecting);

  // A kill can swallow the last event lines; the database knows whether the model ever answered.
  if (!tracker.sawStepStart) tracker.sawStepStart = hasModelOutput(isolation.paths.database);
  if (!tracker.sawToolCall) tracker.sawToolCall = hasToolCall(isolation.paths.database);
  return finish(exitCode, killReason);
}

type Marker = { name: string; value: string };

/** The isolated environment, this provider's credentials, the config and the marker crash recovery finds it by. */
function sessionEnv(request: OpenCodeRequest, isolation: Isolation, marker: Marker): Record<string, string> {
  return {
    ...isolation.env,
    ...request.credentials.env,
    PWD: request.workspace, // `run` trusts $PWD over the real cwd
    OPENCODE_CONFIG_CONTENT: buildConfigContent(request.config, {
      shared: request.sharedFolders ?? [],
      private: [isolation.root],
      loaded: [join(isolation.paths.config, "opencode")],
    }),
    [marker.name]: marker.value,
  };
}

/**
 * Spawns the session, confined and tied to the runner's life, prompt on stdin then closed (an open stdin pipe makes
 * `run` wait forever). On the host in its own session (detached): a terminal's Ctrl-C reaches the runner, which stops
 * it and records why.
 */
function launchSession(
  request: OpenCodeRequest,
  argv: string[],
  env: Record<string, string>,
  marker: Marker,
): Promise<LaunchedCommand> {
  const launch = request.launch ?? launchOnHost(`${marker.name}=${marker.value}`);
  return launch({ argv, cwd: request.workspace, env, stdin: request.prompt });
}

/**
 * The time limit, the caller's abort (interrupted) and stop signals: each kill takes the whole tree, including
 * commands the agent detached, and the first reason wins. `end()` (after exit) releases them and says why it died.
 */
function enforceLimits(
  child: LaunchedCommand,
  request: OpenCodeRequest,
): { kill: (reason: KillReason) => void; end: () => KillReason | null } {
  let killReason: KillReason | null = null;
  const kill = (reason: KillReason) => {
    if (killReason !== null) return;
    killReason = reason;
    void child.kill();
  };
  const timer = setTimeout(() => kill("timed_out"), request.timeoutMs);
  const onAbort = () => kill("interrupted");
  const onStop = () => kill("stopped");
  request.signal?.addEventListener("abort", onAbort, { once: true });
  request.stop?.addEventListener("abort", onStop, { once: true });
  return {
    kill,
    end: () => {
      clearTimeout(timer);
      if (killReason === null && request.signal?.aborted) killReason = "interrupted"; // a signal reached OpenCode first
      request.signal?.removeEventListener("abort", onAbort);
      request.stop?.removeEventListener("abort", onStop);
      return killReason;
    },
  };
}

/**
 * Streams stdout (events) and stderr (log), redacted, to disk, the tracker and the observers; a context the provider
 * keeps rejecting, or spend, tokens or steps past their limits kill the session. `drain()` waits (bounded) for both streams and closes the files.
 */
function streamOutput(
  child: LaunchedCommand,
  request: OpenCodeRequest,
  tracker: RunTracker,
  kill: (reason: KillReason) => void,
  onLine: () => void,
): { drain: () => Promise<void> } {
  const events = Bun.file(request.eventsFile).writer();
  const log = Bun.file(request.stderrFile).writer();
  const stdoutDone = readLines(child.stdout, (raw) => {
    onLine();
    const line = redactSecrets(raw, request.secrets);
    events.write(line + "\n");
    const event = parseEvent(line);
    if (event === null) return;
    // A context the provider keeps rejecting makes OpenCode compact and retry forever: end it as a setup error.
    if (observeEvent(tracker, event) === "context_overflow") kill("context_overflow");
    notify(request.onEvent, event);
    if (event.type === "step_finish")
      notify(request.onProviderSignal, { kind: "answered", sessionID: event.sessionID ?? null });
    if (isBoundary(event)) notify(request.onBoundary, undefined);
    const limit = passedLimit(tracker, event, request);
    if (limit !== null) kill(limit);
  });
  const stderrDone = readLines(child.stderr, (raw) => {
    const line = redactSecrets(raw, request.secrets);
    log.write(line + "\n");
    observeLogLine(tracker, line);
    const signal = readProviderSignal(line);
    if (signal) notify(request.onProviderSignal, signal);
  });
  return {
    drain: async () => {
      await Promise.race([Promise.allSettled([stdoutDone, stderrDone]), Bun.sleep(DRAIN_GRACE_MS)]);
      await Promise.all([events.end(), log.end()]);
    },
  };
}

/** This machine: the confined argv as a child process tied to the runner; a kill takes its tree and every process
 * with the marker. */
function launchOnHost(marker: string): Launcher {
  return async ({ argv, cwd, env, stdin }) => {
    const child = Bun.spawn(tieToRunner(argv), {
      cwd,
      env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    feedPrompt(child, stdin);
    return {
      stdout: child.stdout,
      stderr: child.stderr,
      exited: child.exited.then(() => child.exitCode),
      kill: () =>
        killProcessTree({ pid: child.pid, marker }).then(
          () => undefined,
          () => void child.kill("SIGKILL"),
        ),
    };
  };
}

/** OpenCode reads provider auth from `$XDG_DATA_HOME/opencode/auth.json`; it gets only this provider's entry. */
async function writeAuthEntry(
  isolation: Isolation,
  provider: string,
  auth: Record<string, unknown> | null,
): Promise<void> {
  if (auth === null) return;
  const file = join(isolation.paths.data, "opencode", "auth.json");
  await writeFile(file, JSON.stringify({ [provider]: auth }), { mode: 0o600 });
  await chmod(file, 0o600);
}

function feedPrompt(child: Bun.Subprocess<"pipe", "pipe", "pipe">, prompt: string): void {
  try {
    child.stdin.write(prompt);
    void Promise.resolve(child.stdin.end()).catch(() => {});
  } catch {
    // OpenCode died before reading its prompt; the exit code and stderr tell why.
  }
}

function parseEvent(line: string) {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null; // not an event line
  }
  const parsed = RunEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** `tool_use` arrives only once a tool has finished; a `tool-calls` step_finish is followed by those tools. */
function isBoundary(event: RunEvent): boolean {
  return event.type === "tool_use" || (event.type === "step_finish" && event.part?.reason !== "tool-calls");
}

function notify<Event>(onEvent: ((event: Event) => void) | undefined, event: Event): void {
  try {
    onEvent?.(event);
  } catch {
    // An observer's bug must not kill or falsify a paid candidate run.
  }
}
