// One invariant's command in the verification sandbox: a fresh container from the pinned verification image, no
// network, a read-only root, the verification limits, the image's non-root user. Its input is under /input and the
// benchmark folder's files under /benchmark (its working directory), both owned by root: it reads them, never
// changes them. Exit 0 holds, any other exit is a violation; a timeout or a command that cannot start is unevaluable.
import { randomBytes } from "node:crypto";
import { BoundedBuffer, type EngineOptions, type TarEntry } from "../../sandbox/index.ts";
import type { ParsedVerificationLimits } from "../../recording/index.ts";
import { openVerificationEngine, verificationSpec, withVerificationErrors } from "./verification-sandbox.ts";

export const INVARIANT_INPUT = "/input";
export const INVARIANT_BENCHMARK = "/benchmark";
/** What an exec returns when its program is missing or not executable: the command never started. */
const CANNOT_START = new Set([126, 127]);

export interface InvariantCheckOptions {
  /** The pinned verification image id. */
  image: string;
  argv: string[];
  timeoutMs: number;
  /** Files under /input (root-owned, readable by all). */
  input: TarEntry[];
  /** The benchmark folder's files, under /benchmark. */
  benchmark: TarEntry[];
  limits: ParsedVerificationLimits;
  /** Per stream: bytes past this are counted, not kept. */
  logBytes: number;
  /** The run's id: the container's label, so a dead runner's leftovers are reaped with its run. */
  runId: string;
  engine?: EngineOptions;
}

export type InvariantCheckOutcome = {
  /** `exited`: it ran to an exit code; `timed_out` and `not_started` are unevaluable. */
  state: "exited" | "timed_out" | "not_started";
  exitCode: number | null;
  stdout: string;
  stderr: string;
  logsTruncated: boolean;
  elapsedMs: number;
};

/**
 * @example
 * const outcome = await runInvariantCheck({ image, argv: ["sh", "checks/cost.sh"], timeoutMs: 60_000, input, benchmark, limits, logBytes: 65_536, runId });
 * outcome.state === "exited" && outcome.exitCode === 0 // the invariant holds
 */
export async function runInvariantCheck(options: InvariantCheckOptions): Promise<InvariantCheckOutcome> {
  const id = `i_${randomBytes(6).toString("hex")}`;
  const engine = await openVerificationEngine(options.engine);
  const sandbox = await withVerificationErrors(() =>
    engine.create({
      ...verificationSpec({
        imageId: options.image,
        limits: options.limits,
        timeoutMs: options.timeoutMs,
        id,
        judgeRun: options.runId,
      }),
      folders: [INVARIANT_INPUT, INVARIANT_BENCHMARK],
      workdir: INVARIANT_BENCHMARK,
    }),
  );
  try {
    await withVerificationErrors(async () => {
      await sandbox.copyIn(INVARIANT_INPUT, options.input);
      await sandbox.copyIn(INVARIANT_BENCHMARK, options.benchmark);
    });
    const stdout = new BoundedBuffer(options.logBytes);
    const stderr = new BoundedBuffer(options.logBytes);
    const ran = await withVerificationErrors(() =>
      sandbox.run(options.argv, {
        cwd: INVARIANT_BENCHMARK,
        deadline: Date.now() + options.timeoutMs,
        stdout,
        stderr,
      }),
    );
    const state = ran.timedOut
      ? "timed_out"
      : ran.exitCode !== null && CANNOT_START.has(ran.exitCode)
        ? "not_started"
        : "exited";
    return {
      state,
      exitCode: ran.timedOut ? null : ran.exitCode,
      stdout: stdout.text(),
      stderr: stderr.text(),
      logsTruncated: stdout.truncated || stderr.truncated,
      elapsedMs: ran.elapsedMs,
    };
  } finally {
    await sandbox.remove().catch(() => {});
  }
}
