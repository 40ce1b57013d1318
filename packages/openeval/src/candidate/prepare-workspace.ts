// eval.ts `prepare` (OpenEval's preparation): argv steps run in order in the candidate's workspace,
// inside its isolation, before the initial snapshot, so what they make is the starting state and earns no credit.
// A step that fails, cannot start or outlives its timeout is a preparation error: recorded with the step, its exit
// code and the tail of its output, retryable, never the candidate's 0. Every step's output goes to one
// log of the eval run, redacted like the session's logs.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PREPARE_STEP_TIMEOUT_MS, type PrepareStep } from "../load/index.ts";
import { redactSecrets, RUN_MARKER } from "../opencode/index.ts";
import type { PreparationError } from "../records/index.ts";
import { BoundedBuffer, confineCommand, killProcessTree, tieToRunner, type OutputSink } from "../sandbox/index.ts";
import { shellWord } from "../util/shell-word.ts";

/** What a step kept of its output: enough for the log; the error keeps only the tail. */
const MAX_STEP_OUTPUT_BYTES = 1024 * 1024;
const TAIL_LINES = 20;
const TAIL_CHARS = 4000;
const DRAIN_GRACE_MS = 5_000;

/** How one step ended: the exit code (null when killed or never started), and why it did not exit 0. */
export interface StepEnd {
  exitCode: number | null;
  timedOut: boolean;
  /** The step could not start (no such program or folder). */
  startError?: string;
}

/**
 * Runs one step where the candidate runs. `cwd` is the host path of the step's folder and `env` the environment the
 * candidate's session gets (without its credentials); both are mapped by a backend that runs elsewhere.
 */
export type StepRunner = (
  step: { argv: string[]; cwd: string; env: Record<string, string> },
  options: { timeoutMs: number; output: OutputSink; signal?: AbortSignal },
) => Promise<StepEnd>;

export interface PrepareOptions {
  workspace: string;
  env: Record<string, string>;
  runStep: StepRunner;
  /** The eval run's preparation log (absolute); `logPath` is how the record names it (relative to the run directory). */
  logFile: string;
  logPath: string;
  secrets: string[];
  timeoutMs?: number;
  /** The runner is stopping: the running step is killed and no further step starts. */
  signal?: AbortSignal;
}

/** A failed preparation: the record kept on the eval run, and its error sentence. */
export interface PreparationFailure {
  preparation: PreparationError;
  message: string;
}

/** Runs the steps in order; the first that does not exit 0 stops preparation and is returned as the failure. */
export async function prepareWorkspace(
  steps: readonly PrepareStep[],
  options: PrepareOptions,
): Promise<PreparationFailure | null> {
  if (steps.length === 0) return null;
  const timeoutMs = options.timeoutMs ?? PREPARE_STEP_TIMEOUT_MS;
  const log: string[] = [];
  let failure: PreparationFailure | null = null;
  for (const [index, step] of steps.entries()) {
    const output = new BoundedBuffer(MAX_STEP_OUTPUT_BYTES);
    const run = { timeoutMs, output, ...(options.signal ? { signal: options.signal } : {}) };
    const end = await options
      .runStep({ argv: step.argv, cwd: join(options.workspace, step.cwd), env: options.env }, run)
      .catch(
        (error: unknown): StepEnd => ({
          exitCode: null,
          timedOut: false,
          startError: error instanceof Error ? error.message : String(error),
        }),
      );
    // Redacted as a whole (a key the environment handed in can be in the output, or even in argv).
    const redact = (text: string) => redactSecrets(text, options.secrets);
    const text =
      redact(output.text()) +
      (output.truncated ? `\n[${output.total - MAX_STEP_OUTPUT_BYTES} more bytes not kept]\n` : "");
    const argv = step.argv.map(redact);
    const command = argv.map(shellWord).join(" ");
    const ending = redact(describeEnd(end, timeoutMs));
    log.push(`$ (cd ${step.cwd} && ${command})`, `${text.replace(/\n?$/, "\n")}[${ending}]`, "");
    if (end.exitCode !== 0) {
      failure = {
        preparation: {
          step: index + 1,
          cwd: step.cwd,
          argv,
          exitCode: end.exitCode,
          timedOut: end.timedOut,
          outputTail: tailOf(text),
          log: options.logPath,
        },
        message: `Preparation error: prepare step ${index + 1} (${command} in ${step.cwd}) ${ending}${lastLine(text)}; fix the eval's prepare steps or workspace, then execute it again with openeval retry`,
      };
      break;
    }
  }
  await mkdir(dirname(options.logFile), { recursive: true });
  await writeFile(options.logFile, log.join("\n"));
  return failure;
}

/**
 * This machine: the step confined like the candidate's OpenCode (PID namespace, or its marker — the eval run's id,
 * which crash recovery reaps by), tied to the runner, killed whole at its timeout.
 */
export function hostStepRunner(evalRunId: string): StepRunner {
  return async ({ argv, cwd, env }, { timeoutMs, output, signal }) => {
    const markerEntry = `${RUN_MARKER}=${evalRunId}`;
    const { argv: confined } = await confineCommand(argv);
    const child = Bun.spawn(tieToRunner(confined), {
      cwd,
      env: { ...env, PWD: cwd, [RUN_MARKER]: evalRunId },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    const drained = Promise.all([pipe(child.stdout, output), pipe(child.stderr, output)]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void killProcessTree({ pid: child.pid, marker: markerEntry });
    }, timeoutMs);
    const onAbort = () => void killProcessTree({ pid: child.pid, marker: markerEntry });
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    await child.exited;
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    // What the step left running (a daemon it started) does not outlive it, nor hold its output open.
    await killProcessTree({ marker: markerEntry });
    await Promise.race([drained, Bun.sleep(DRAIN_GRACE_MS)]);
    return { exitCode: timedOut ? null : child.exitCode, timedOut };
  };
}

async function pipe(stream: ReadableStream<Uint8Array>, sink: OutputSink): Promise<void> {
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) sink.write(read.value);
}

function describeEnd(end: StepEnd, timeoutMs: number): string {
  if (end.startError !== undefined) return `could not start: ${end.startError}`;
  if (end.timedOut) return `timed out after ${Math.round(timeoutMs / 1000)} s`;
  return end.exitCode === null ? "was killed" : `exited ${end.exitCode}`;
}

/** The output's last line for the error sentence (the summary and viewer show it; the record keeps the tail). */
function lastLine(text: string): string {
  const line = text.trimEnd().split("\n").at(-1)?.trim() ?? "";
  return line === "" ? "" : `, last output: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`;
}

function tailOf(text: string): string {
  return text.trimEnd().split("\n").slice(-TAIL_LINES).join("\n").slice(-TAIL_CHARS);
}
