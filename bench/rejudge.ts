// Measurement 3: rejudge throughput of code judges. N constructed recordings (recordEvidence), one judge.ts bundled
// once, then every recording graded with runCodeJudge — sequentially, then through a small pool.
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { recordEvidence, type EvidenceRef } from "../packages/openeval/src/index.ts";
import { bundleProgram, runCodeJudge, type CodeJudgeExecution } from "../packages/openeval/src/judge/index.ts";
import { bundleCodeJudge, type CodeJudgeBundle } from "../packages/openeval/src/load/index.ts";
import { readCpuTime } from "./lib/cpu.ts";
import { median, now, round } from "./lib/stats.ts";
import { millis, seconds, type Section } from "./lib/table.ts";
import { withTempDir, writeTree } from "./lib/temp.ts";

export interface RejudgeSample {
  /** Gradings in flight at once. */
  pool: number;
  gradings: number;
  wallMs: number;
  gradingsPerSecond: number;
  /** CPU (user + system) per grading: the runner's own and its workers', ms. */
  cpuMsPerGrading: { runner: number; workers: number };
  /** Gradings per second this machine's cores could sustain at that CPU cost (cores × 1000 / CPU ms). */
  cpuBoundGradingsPerSecond: number;
  /** Median of runCodeJudge's own elapsedMs (the worker process), per grading. */
  medianGradingMs: number;
  /** Gradings that failed or scored differently from what the recording was built to get (should be 0). */
  wrong: number;
  /** Distinct errors of failed gradings, with how often each occurred. */
  errors: Record<string, number>;
  elapsedMs: number[];
}

export interface RejudgeResult {
  recordings: number;
  recordMs: number;
  bundleMs: number;
  samples: RejudgeSample[];
  /** `bun -e 0`: a bare Bun process (each grading is one worker process), for reference. */
  bunStart: ProcessCost;
  /** The bundled code-judge worker given no job: what every grading loads before its job arrives, then exit. */
  workerStart: ProcessCost;
}

/** One process started ten times, one at a time. */
export interface ProcessCost {
  wallMs: number[];
  /** Mean CPU (user + system) per start: /proc counts 10 ms ticks, too coarse for one start of ~20 ms. */
  cpuMs: number;
}

/** Reads the response and the workspace, as a typical judge does; half the recordings are built to fail it. */
const JUDGE = `import type { JudgeContext } from "openeval";

export default async ({ response, workspace, recording }: JudgeContext) => ({
  scores: {
    correct_answer: response.text === "APPLE",
    wrote_notes: (await workspace.text("notes.txt", "final")).includes("APPLE"),
    used_tools: recording.tools().length > 0,
  },
});
`;

export async function measureRejudge(options: { recordings: number; pools: number[] }): Promise<RejudgeResult> {
  return withTempDir("rejudge", async (root) => {
    const evalDirectory = join(root, "eval");
    await writeTree(evalDirectory, {
      "prompt.md": "Reply with exactly APPLE and write it to notes.txt.\n",
      "judge.ts": JUDGE,
    });

    let start = now();
    const evidence: EvidenceRef[] = [];
    for (let index = 0; index < options.recordings; index++) evidence.push(await record(root, index));
    const recordMs = now() - start;

    start = now();
    const bundle = await bundleCodeJudge(join(evalDirectory, "judge.ts"), root);
    const bundleMs = now() - start;

    const samples: RejudgeSample[] = [];
    for (const pool of options.pools) samples.push(await gradeAll(root, evalDirectory, bundle, evidence, pool));
    const bunStart = await measureProcess([process.execPath, "-e", "0"]);
    const workerStart = await measureProcess([
      process.execPath,
      "--no-install",
      await bundleProgram("code-worker", root),
    ]);
    return {
      recordings: options.recordings,
      recordMs: round(recordMs),
      bundleMs: round(bundleMs),
      samples,
      bunStart,
      workerStart,
    };
  });
}

/** Even recordings pass every criterion; odd ones answer in lower case and leave notes.txt unchanged. */
function record(root: string, index: number): Promise<EvidenceRef> {
  const passing = index % 2 === 0;
  return recordEvidence({
    directory: join(root, "recordings", String(index)),
    prompt: "Reply with exactly APPLE and write it to notes.txt.",
    response: passing ? "APPLE" : "apple",
    tools: [{ name: "write", input: { filePath: "notes.txt" }, output: "ok" }],
    workspace: { initial: { "notes.txt": "todo\n" }, final: { "notes.txt": passing ? "APPLE\n" : "todo\n" } },
  });
}

async function gradeAll(
  root: string,
  evalDirectory: string,
  bundle: CodeJudgeBundle,
  evidence: EvidenceRef[],
  pool: number,
): Promise<RejudgeSample> {
  const executions: CodeJudgeExecution[] = new Array(evidence.length);
  let next = 0;
  const worker = async () => {
    while (next < evidence.length) {
      const index = next++;
      executions[index] = await runCodeJudge({
        bundle,
        evalDirectory,
        evidence: evidence[index]!,
        run: null,
        timeoutMs: 60_000,
        directory: join(root, `judged-pool${pool}`, String(index), "code"),
      });
    }
  };
  const cpuBefore = readCpuTime();
  const start = now();
  await Promise.all(Array.from({ length: pool }, worker));
  const wallMs = now() - start;
  const cpuAfter = readCpuTime();
  const runnerMs = (cpuAfter.selfMs - cpuBefore.selfMs) / evidence.length;
  const workersMs = (cpuAfter.childrenMs - cpuBefore.childrenMs) / evidence.length;
  const elapsedMs = executions.map((execution) => execution.elapsedMs);
  return {
    pool,
    gradings: executions.length,
    wallMs: round(wallMs),
    gradingsPerSecond: round(executions.length / (wallMs / 1000), 2),
    cpuMsPerGrading: { runner: round(runnerMs), workers: round(workersMs) },
    cpuBoundGradingsPerSecond: round((availableParallelism() * 1000) / (runnerMs + workersMs), 1),
    medianGradingMs: round(median(elapsedMs)),
    wrong: executions.filter((execution, index) => !gradedAsBuilt(execution, index % 2 === 0)).length,
    errors: countErrors(executions),
    elapsedMs,
  };
}

function countErrors(executions: readonly CodeJudgeExecution[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { error } of executions) if (error) counts[error] = (counts[error] ?? 0) + 1;
  return counts;
}

function gradedAsBuilt(execution: CodeJudgeExecution, passing: boolean): boolean {
  const value = (id: string) => execution.scores?.[id]?.value;
  return (
    execution.state === "completed" &&
    value("correct_answer") === (passing ? 1 : 0) &&
    value("wrote_notes") === (passing ? 1 : 0) &&
    value("used_tools") === 1
  );
}

async function measureProcess(argv: string[]): Promise<ProcessCost> {
  const starts = 10;
  const wallMs: number[] = [];
  const cpuBefore = readCpuTime().childrenMs;
  for (let index = 0; index < starts; index++) {
    const start = now();
    // stdin closed: a worker with no job exits as soon as it has loaded.
    const child = Bun.spawn(argv, { cwd: import.meta.dirname, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    if (exitCode !== 0) throw new Error(`${argv.join(" ")} failed (exit ${exitCode}): ${stderr.slice(-1000)}`);
    wallMs.push(round(now() - start));
  }
  return { wallMs, cpuMs: round((readCpuTime().childrenMs - cpuBefore) / starts) };
}

export function sectionRejudge(result: RejudgeResult): Section {
  const wrong = result.samples.filter((sample) => sample.wrong > 0);
  return {
    title: `3. Rejudge throughput of code judges (${result.recordings} constructed recordings, one judge.ts bundled once)`,
    columns: [
      "pool",
      "gradings",
      "wall s",
      "gradings/s",
      "median ms per grading",
      "CPU ms/grading (runner+workers)",
      "CPU-bound gradings/s",
    ],
    rows: [
      ...result.samples.map((sample) => [
        String(sample.pool),
        sample.gradings,
        seconds(sample.wallMs),
        sample.gradingsPerSecond.toFixed(2),
        millis(sample.medianGradingMs),
        `${millis(sample.cpuMsPerGrading.runner)}+${millis(sample.cpuMsPerGrading.workers)}`,
        sample.cpuBoundGradingsPerSecond.toFixed(1),
      ]),
      [
        "reference: `bun -e 0` (process start)",
        "",
        "",
        "",
        millis(median(result.bunStart.wallMs)),
        millis(result.bunStart.cpuMs),
        "",
      ],
      [
        "reference: the bundled worker, no job (start-up loads)",
        "",
        "",
        "",
        millis(median(result.workerStart.wallMs)),
        millis(result.workerStart.cpuMs),
        "",
      ],
    ],
    notes: [
      `recordEvidence for all ${result.recordings}: ${seconds(result.recordMs)} s; bundleCodeJudge once: ${millis(result.bundleMs)} ms`,
      ...wrong.map(
        (sample) =>
          `WARNING: with pool ${sample.pool}, ${sample.wrong} gradings failed or scored differently than built; errors: ${JSON.stringify(sample.errors)}`,
      ),
    ],
  };
}
