// Measurement 2: end-to-end throughput. A benchmark of K tiny evals × the two control models, run fresh
// (`new: true`) with runBenchmark at each concurrency; eval runs per minute from the wall time of the calls. Beside
// each, the reference: the same sessions as bare `opencode run`s, N at a time, against the same control server, so
// the ratio says whether the harness or OpenCode (on this many cores) is the limit. Harness and bare runs alternate.
import { join } from "node:path";
import { startControlServer } from "@openeval/control-model";
import { loadBenchmark, runBenchmark } from "../packages/openeval/src/index.ts";
import { runBareOpenCode } from "./lib/bare-opencode.ts";
import { readCpuTime } from "./lib/cpu.ts";
import { writeTinyBenchmark } from "./lib/fixtures.ts";
import { median, now, round } from "./lib/stats.ts";
import { millis, seconds, type Section } from "./lib/table.ts";
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
  /** The runner's own CPU (user + system, OpenCode and judge processes excluded) per eval run, ms. */
  runnerCpuMsPerEvalRun: number;
  /** The same sessions as bare `opencode run`s, `concurrency` at a time, as many rounds. */
  bare: { wallMs: number; evalRunsPerMinute: number };
  /** Harness eval runs/min ÷ bare runs/min (aim: ≥ 0.9). */
  ratio: number;
}

export interface ThroughputResult {
  evals: number;
  models: string[];
  /** Harness and bare runs at each concurrency, interleaved. */
  rounds: number;
  samples: ThroughputSample[];
}

const MODELS = ["control/positive", "control/negative"];

export async function measureThroughput(options: {
  evals: number;
  concurrency: number[];
  rounds: number;
}): Promise<ThroughputResult> {
  return withTempDir("throughput", async (root) => {
    const benchmarkDir = join(root, "benchmark");
    await writeTinyBenchmark(benchmarkDir, options.evals, { models: MODELS, repetitions: 1 });
    const sessions = await bareSessions(benchmarkDir);
    const server = await startControlServer({
      controls: Object.fromEntries(sessions.evals.map((evaluation) => [evaluation.id, evaluation.controls])),
    });
    const bareOnce = (concurrency: number) =>
      runBare(sessions.runs, concurrency, async (run) => {
        const { text } = await runBareOpenCode({ server, parent: root, timeExport: false, ...run });
        if (!/^word\d+$/i.test(text))
          throw new Error(`a bare run of ${run.evalId} answered ${JSON.stringify(text)}, not its control's word`);
      });
    const samples: ThroughputSample[] = [];
    try {
      for (const concurrency of options.concurrency) {
        // Interleaved rounds, the order swapped each round: one harness run beside one bare run moved the ratio by ±0.1
        // between two runs of the bench on a quiet machine, and a drift in the machine's speed favours neither side.
        const harness: HarnessRound[] = [];
        let bareMs = 0;
        for (let pass = 0; pass < options.rounds; pass++) {
          if (pass % 2 === 1) bareMs += await bareOnce(concurrency);
          harness.push(await runOnce(benchmarkDir, concurrency));
          if (pass % 2 === 0) bareMs += await bareOnce(concurrency);
        }
        const sample = combineRounds(concurrency, harness);
        const bareRate = round((options.rounds * sessions.runs.length) / (bareMs / 60_000), 2);
        samples.push({
          ...sample,
          bare: { wallMs: round(bareMs), evalRunsPerMinute: bareRate },
          ratio: round(sample.evalRunsPerMinute / bareRate, 3),
        });
      }
    } finally {
      await server.close();
    }
    return { evals: options.evals, models: MODELS, rounds: options.rounds, samples };
  });
}

interface BareSession {
  evalId: string;
  control: string;
  prompt: string;
}

/** Every (eval, control model) of the benchmark, as the bare reference runs it. */
async function bareSessions(benchmarkDir: string) {
  const { evals } = await loadBenchmark(benchmarkDir);
  const runs: BareSession[] = evals.flatMap((evaluation) =>
    MODELS.map((model) => ({
      evalId: evaluation.id,
      control: model.slice("control/".length),
      prompt: evaluation.prompt.text,
    })),
  );
  return { evals, runs };
}

/** Wall time of all sessions run bare, `concurrency` at a time. */
async function runBare(
  runs: BareSession[],
  concurrency: number,
  run: (session: BareSession) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const lane = async () => {
    while (next < runs.length) await run(runs[next++]!);
  };
  const start = now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  return now() - start;
}

interface HarnessRound {
  evalRuns: number;
  judged: number;
  wallMs: number;
  openCodeMs: number[];
  runnerCpuMs: number;
}

async function runOnce(benchmarkDir: string, concurrency: number): Promise<HarnessRound> {
  const openCodeMs: number[] = [];
  let evalRuns = 0;
  let judged = 0;
  const cpuBefore = readCpuTime();
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
  return { evalRuns, judged, wallMs, openCodeMs, runnerCpuMs: readCpuTime().selfMs - cpuBefore.selfMs };
}

/** The rounds at one concurrency as one sample: eval runs over the rounds' summed wall time. */
function combineRounds(concurrency: number, rounds: readonly HarnessRound[]): Omit<ThroughputSample, "bare" | "ratio"> {
  const sum = (value: (one: HarnessRound) => number) => rounds.reduce((total, one) => total + value(one), 0);
  const evalRuns = sum((one) => one.evalRuns);
  const wallMs = sum((one) => one.wallMs);
  return {
    concurrency,
    evalRuns,
    wallMs: round(wallMs),
    evalRunsPerMinute: round(evalRuns / (wallMs / 60_000), 2),
    medianOpenCodeMs: round(median(rounds.flatMap((one) => one.openCodeMs))),
    incomplete: evalRuns - sum((one) => one.judged),
    runnerCpuMsPerEvalRun: round(sum((one) => one.runnerCpuMs) / Math.max(evalRuns, 1)),
  };
}

export function sectionThroughput(result: ThroughputResult): Section {
  const incomplete = result.samples.filter((sample) => sample.incomplete > 0);
  return {
    title: `2. End-to-end throughput (${result.evals} tiny evals × ${result.models.join(", ")} × 1 repetition, fresh run each; ${result.rounds} interleaved rounds of harness and bare at each concurrency)`,
    columns: [
      "concurrency",
      "eval runs",
      "wall s",
      "eval runs/min",
      "bare runs/min",
      "harness/bare",
      "median OpenCode s per run",
      "runner CPU ms per run",
    ],
    rows: result.samples.map((sample) => [
      String(sample.concurrency),
      sample.evalRuns,
      seconds(sample.wallMs),
      sample.evalRunsPerMinute.toFixed(2),
      sample.bare.evalRunsPerMinute.toFixed(2),
      sample.ratio.toFixed(2),
      seconds(sample.medianOpenCodeMs),
      millis(sample.runnerCpuMsPerEvalRun),
    ]),
    notes: incomplete.map(
      (sample) =>
        `WARNING: at concurrency ${sample.concurrency}, ${sample.incomplete} eval runs ended without a completed judgment`,
    ),
  };
}
