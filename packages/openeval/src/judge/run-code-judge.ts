// Host side of code judging: freezes the bundle into the judge run's folder, runs it in a separate (warm) Bun
// process under the time limit, and turns what came back into normalized scores or a recorded failure.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { CodeJudgeBundle } from "../load/index.ts";
import type { EvidenceRef, JudgeCase } from "../recording/index.ts";
import type { CriterionScore, EvalRun } from "../records/index.ts";
import { writeFileAtomic, writeJsonAtomic } from "../util/files.ts";
import { JudgingError, normalizeJudgeOutput } from "./normalize.ts";
import { harnessProgram } from "./bundle-program.ts";
import { takeCodeWorker } from "./code-worker-pool.ts";
import { linkImports } from "./link-imports.ts";
import { WorkerResultSchema, type CodeJudgeJob } from "./schema.ts";
import { reapVerificationContainers } from "./verification/index.ts";
import { redactBytes } from "../opencode/index.ts";

export interface CodeJudgeRequest {
  bundle: CodeJudgeBundle;
  /** The eval folder: the judge's working directory, and where its package imports resolve. */
  evalDirectory: string;
  evidence: EvidenceRef;
  run: EvalRun | null;
  /** ctx.case (default null: an eval without cases). */
  case?: JudgeCase | null;
  timeoutMs: number;
  /** The judge run's `code/` folder: bundle, logs and returned JSON are kept here. */
  directory: string;
  /** The worker to run (a run's frozen bundle of code-worker.ts, see bundleProgram); default: this harness's own. */
  worker?: string;
  /** Values removed from the judge's logs and returned JSON before they are read or kept. */
  secrets?: readonly string[];
  /** ctx.verification for this grading (null: the judge gets a context whose verification explains what is missing). */
  verification?: CodeJudgeJob["verification"];
  /** Aborted when the runner is interrupted: the worker is killed and the grading ends `interrupted`. */
  signal?: AbortSignal;
  /** RUN_MARKER value in the worker's environment, so that crash recovery can find and reap it. */
  marker?: string;
}

export interface CodeJudgeExecution {
  state: "completed" | "failed" | "timed_out" | "interrupted";
  /** The returned JSON exactly as the judge returned it. */
  output?: unknown;
  /** Normalized scores; null when the judge returned no scores (unscored). */
  scores: Record<string, CriterionScore> | null;
  error?: string;
  elapsedMs: number;
  /** Files in `directory`. */
  files: { source: string; stdout: string; stderr: string; output: string };
}

export const CODE_JUDGE_FILES = {
  source: "judge.js",
  stdout: "stdout.log",
  stderr: "stderr.log",
  output: "output.json",
} as const;

export async function runCodeJudge(request: CodeJudgeRequest): Promise<CodeJudgeExecution> {
  const { directory } = request;
  await mkdir(directory, { recursive: true });
  const module = join(directory, CODE_JUDGE_FILES.source);
  // judge.js keeps the frozen bundle exactly; the file the worker imports has its packages pinned to paths.
  await writeFileAtomic(module, request.bundle.source);
  const linked = join(directory, "judge.linked.js");
  await writeFileAtomic(linked, linkImports(request.bundle.source, request.evalDirectory));
  await writeJsonAtomic(join(directory, "dependencies.json"), request.bundle.dependencies);
  const job: CodeJudgeJob = {
    module: linked,
    output: join(directory, CODE_JUDGE_FILES.output),
    cwd: request.evalDirectory,
    evidence: request.evidence,
    run: request.run,
    case: request.case ?? null,
    declaredCriteria: request.bundle.criteria?.map((criterion) => criterion.id) ?? null,
    verification: request.verification ?? null,
  };

  await rm(job.output, { force: true });
  const child = takeCodeWorker(request.worker ?? (await harnessProgram("code-worker")), request.marker);
  const logs = Promise.all([
    Bun.write(join(directory, CODE_JUDGE_FILES.stdout), new Response(child.stdout)),
    Bun.write(join(directory, CODE_JUDGE_FILES.stderr), new Response(child.stderr)),
  ]);
  const startedAt = performance.now();
  child.stdin.write(JSON.stringify(job));
  await child.stdin.end();
  let timedOut = false;
  // SIGKILL, not SIGTERM: a synchronous `while (true) {}` never runs a signal handler.
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, request.timeoutMs);
  const onAbort = () => child.kill("SIGKILL");
  if (request.signal?.aborted) onAbort();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  const exitCode = await child.exited;
  clearTimeout(timer);
  request.signal?.removeEventListener("abort", onAbort);
  await logs;
  // A killed judge cannot remove its own containers.
  if (job.verification?.image || job.verification?.environment)
    await reapVerificationContainers({ judgeRun: job.verification.judgeRun, ...job.verification.engine }).catch(
      () => undefined,
    );
  const elapsedMs = Math.round(performance.now() - startedAt);
  await redactFiles(
    [CODE_JUDGE_FILES.stdout, CODE_JUDGE_FILES.stderr, CODE_JUDGE_FILES.output].map((name) => join(directory, name)),
    request.secrets ?? [],
  );
  const base = { elapsedMs, files: CODE_JUDGE_FILES };

  if (request.signal?.aborted && !timedOut) {
    return {
      ...base,
      state: "interrupted",
      scores: null,
      error: "The runner was interrupted while judge.ts ran; the recording is judged again on the next run",
    };
  }
  if (timedOut) {
    return {
      ...base,
      state: "timed_out",
      scores: null,
      error: `judge.ts exceeded its ${request.timeoutMs} ms time limit and was stopped`,
    };
  }
  const result = await readWorkerResult(job.output);
  if (!result) {
    return {
      ...base,
      state: "failed",
      scores: null,
      error: `judge.ts process exited with code ${exitCode} before returning a result; see ${CODE_JUDGE_FILES.stderr}`,
    };
  }
  if (!result.ok) return { ...base, state: "failed", scores: null, error: result.error };
  try {
    const normalized = normalizeJudgeOutput(result.output, "judge.ts", job.declaredCriteria);
    return {
      ...base,
      state: "completed",
      output: result.output,
      scores: normalized.kind === "scored" ? normalized.scores : null,
    };
  } catch (error) {
    if (!(error instanceof JudgingError)) throw error;
    return { ...base, state: "failed", output: result.output, scores: null, error: error.message };
  }
}

/** A judge runs with the runner's environment (it may call a model itself): what it prints or returns is redacted. */
async function redactFiles(files: string[], secrets: readonly string[]): Promise<void> {
  if (secrets.length === 0) return;
  for (const file of files) {
    if (!existsSync(file)) continue;
    const data = new Uint8Array(await readFile(file));
    const redacted = redactBytes(data, secrets);
    if (redacted !== data) await writeFileAtomic(file, redacted);
  }
}

async function readWorkerResult(path: string) {
  if (!existsSync(path)) return null;
  try {
    const parsed = WorkerResultSchema.safeParse(JSON.parse(await readFile(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // a torn write: the worker died while writing
  }
}
