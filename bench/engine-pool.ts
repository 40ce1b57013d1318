// Section 11: a pool of engines. Three dockerd, each in its own network namespace on this machine (the test
// harness's pool, test/helpers/engine-pool.ts), the candidate image carried to each (timed); then the same eval runs
// (control/positive in containers, one sandbox per engine at a time) on the first one, two and three engines.
// On one 2-core machine the engines share the same CPUs, so more engines cannot make work faster here: the figures are
// eval runs per minute for the pool and per engine, and the runner's own CPU per eval run, which must stay a small
// share of an eval run's time for the runner never to be what limits a large pool.
import { join } from "node:path";
import { buildCandidateImage } from "../packages/openeval/src/candidate/index.ts";
import { runBenchmark } from "../packages/openeval/src/index.ts";
import { isEngineReachable, openSandboxEngine } from "../packages/openeval/src/sandbox/index.ts";
import {
  canStartEnginePool,
  engineOptionsOf,
  enginesSetting,
  startEnginePool,
  type TestEngine,
} from "../test/helpers/engine-pool.ts";
import { readCpuTime } from "./lib/cpu.ts";
import { tinyEvalFiles } from "./lib/fixtures.ts";
import { median, now, round } from "./lib/stats.ts";
import type { Section } from "./lib/table.ts";
import { withTempDir, writeTree } from "./lib/temp.ts";

export interface EnginePoolBench {
  /** Carrying the candidate image (save → load, id checked) to an empty engine, median ms. */
  carryMs: number;
  evalRuns: number;
  byEngines: {
    engines: number;
    evalRunsPerMinute: number;
    /** The pool's rate shared out: eval runs per minute per engine. */
    perEngine: number;
    /** Eval runs each engine ran (placement by most free capacity). */
    placed: Record<string, number>;
    /** The runner's own CPU (this process: planning, placing, recording, judging bookkeeping) per eval run, ms. */
    runnerCpuMsPerEvalRun: number;
    /** That CPU against an eval run's wall time at that pool size (%). */
    runnerCpuShare: number;
  }[];
}

/** Null when a pool cannot be started here (not root, no dockerd, no local engine to carry images from). */
export async function measureEnginePool(options: { evalRuns: number }): Promise<EnginePoolBench | null> {
  if (!canStartEnginePool().ok || !(await isEngineReachable())) return null;
  const { imageId } = await buildCandidateImage();
  const pool = await startEnginePool({ names: ["a", "b", "c"], tls: ["b"] });
  try {
    const local = await openSandboxEngine("container");
    const carried: number[] = [];
    for (const engine of pool.engines) {
      const start = now();
      await local.carryImage(imageId, await openSandboxEngine("container", { container: engineOptionsOf(engine) }));
      carried.push(now() - start);
    }
    const byEngines: EnginePoolBench["byEngines"] = [];
    for (const count of [1, 2, 3]) byEngines.push(await measureRuns(pool.engines.slice(0, count), options.evalRuns));
    return { carryMs: round(median(carried)), evalRuns: options.evalRuns, byEngines };
  } finally {
    await pool.stop();
  }
}

async function measureRuns(engines: TestEngine[], evalRuns: number): Promise<EnginePoolBench["byEngines"][number]> {
  return withTempDir("engine-pool", async (directory) => {
    const files: Record<string, string> = {};
    for (let n = 1; n <= evalRuns; n++) Object.assign(files, tinyEvalFiles(n));
    const container = { engines: enginesSetting(engines, 1) };
    const settings = {
      models: ["control/positive"],
      repetitions: 1,
      concurrency: engines.length,
      judge: { timeoutMs: 60_000 },
      candidate: { timeoutMs: 300_000, isolation: "container", container },
    };
    await writeTree(directory, { ...files, "benchmark.ts": `export default ${JSON.stringify(settings)};\n` });
    const placed: Record<string, number> = {};
    const cpu = readCpuTime();
    const start = now();
    await runBenchmark({
      benchmark: directory,
      new: true,
      onEvent: (event) => {
        if (event.type !== "candidate.finished") return;
        const engine = event.evalRun.input.engine ?? "?";
        placed[engine] = (placed[engine] ?? 0) + 1;
      },
    });
    const wallMs = now() - start;
    const runnerMs = readCpuTime().selfMs - cpu.selfMs;
    const perMinute = (evalRuns * 60_000) / wallMs;
    // An eval run's wall time with `engines` of them running side by side.
    const evalRunMs = (wallMs * engines.length) / evalRuns;
    return {
      engines: engines.length,
      evalRunsPerMinute: round(perMinute, 2),
      perEngine: round(perMinute / engines.length, 2),
      placed,
      runnerCpuMsPerEvalRun: round(runnerMs / evalRuns),
      runnerCpuShare: round((100 * runnerMs) / evalRuns / evalRunMs, 1),
    };
  });
}

export function sectionEnginePool(bench: EnginePoolBench): Section[] {
  return [
    {
      title: `11. engine pool: ${bench.evalRuns} eval runs (control/positive, containers) on 1, 2 and 3 engines in their own network namespaces, one sandbox per engine at a time; image carried in ${(bench.carryMs / 1000).toFixed(1)} s per engine`,
      columns: ["engines", "eval runs / min", "per engine", "placed", "runner CPU / eval run", "of an eval run's time"],
      rows: bench.byEngines.map((row) => [
        row.engines,
        row.evalRunsPerMinute.toFixed(2),
        row.perEngine.toFixed(2),
        Object.entries(row.placed)
          .map(([engine, count]) => `${engine} ${count}`)
          .join(", "),
        `${row.runnerCpuMsPerEvalRun} ms`,
        `${row.runnerCpuShare}%`,
      ]),
      notes: [
        "The engines share this machine's CPUs: a pool adds throughput only with more hosts. What must stay small is the runner's CPU per eval run.",
      ],
    },
  ];
}
