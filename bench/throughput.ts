// Measurement 2: end-to-end throughput. A benchmark of K tiny evals × the two control models, run fresh
// (`new: true`) with runBenchmark at each concurrency; eval runs per minute from the wall time of the call.
import { join } from "node:path";
import { runBenchmark } from "../packages/openeval/src/index.ts";
import { writeTinyBenchmark } from "./lib/fixtures.ts";
import { median, now, round } from "./lib/stats.ts";
import { seconds, type Section } from "./lib/table.ts";
import { withTempDir } from "./lib/temp.ts";

export interface ThroughputSample {
  concurrency: number;
  evalRuns: number;
  wallMs: number;
  evalRunsPerMinute: number;
  /** Median OpenCode process time per eval run: grows when runs compete for the cores. */
  medianOpenCodeMs: number;
  /** Eval runs that did not complete with a judgment (should be 0). */
  incomplete: number;
}

export interface ThroughputResult {
  evals: number;
  models: string[];
  samples: ThroughputSample[];
}

const MODELS = ["control/positive", "control/negative"];

export async function measureThroughput(options: { evals: number; concurrency: number[] }): Promise<ThroughputResult> {
  return withTempDir("throughput", async (root) => {
    const benchmarkDir = join(root, "benchmark");
    await writeTinyBenchmark(benchmarkDir, options.evals, { models: MODELS, repetitions: 1 });
    const samples: ThroughputSample[] = [];
    for (const concurrency of options.concurrency) samples.push(await runOnce(benchmarkDir, concurrency));
    return { evals: options.evals, models: MODELS, samples };
  });
}

async function runOnce(benchmarkDir: string, concurrency: number): Promise<ThroughputSample> {
  const openCodeMs: number[] = [];
  let evalRuns = 0;
  let judged = 0;
  const start = now();
  await runBenchmark({
    benchmark: benchmarkDir,
    new: true,
    concurrency,
    onEvent: (event) => {
      if (event.type === "candidate.finished") {
        evalRuns++;
        openCodeMs.push(event.evalRun.elapsedMs ?? Number.NaN);
      }
      if (event.type === "judge.finished" && event.judgeRun.state === "completed") judged++;
    },
  });
  const wallMs = now() - start;
  return {
    concurrency,
    evalRuns,
    wallMs: round(wallMs),
    evalRunsPerMinute: round(evalRuns / (wallMs / 60_000), 2),
    medianOpenCodeMs: round(median(openCodeMs)),
    incomplete: evalRuns - judged,
  };
}

export function sectionThroughput(result: ThroughputResult): Section {
  const incomplete = result.samples.filter((sample) => sample.incomplete > 0);
  return {
    title: `2. End-to-end throughput (${result.evals} tiny evals × ${result.models.join(", ")} × 1 repetition, fresh run each)`,
    columns: ["concurrency", "eval runs", "wall s", "eval runs/min", "median OpenCode s per run"],
    rows: result.samples.map((sample) => [
      String(sample.concurrency),
      sample.evalRuns,
      seconds(sample.wallMs),
      sample.evalRunsPerMinute.toFixed(2),
      seconds(sample.medianOpenCodeMs),
    ]),
    notes: incomplete.map((sample) => `WARNING: at concurrency ${sample.concurrency}, ${sample.incomplete} eval runs ended without a completed judgment`),
  };
}
