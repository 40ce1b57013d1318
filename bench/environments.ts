// Section 10: task environments. The environment images of three evals built cold (their hashes new to the engine),
// then again (found by hash: nothing is built), each as `openeval image --environments` does it; and whole eval runs
// of the same scripted session in the standard candidate image against the same evals, each with an environment/
// (the eval's workspace files baked into its image under /app) — the per-eval-run cost of an environment image.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { buildCandidateImage } from "../packages/openeval/src/candidate/index.ts";
import { runBenchmark } from "../packages/openeval/src/index.ts";
import { loadBenchmark } from "../packages/openeval/src/load/index.ts";
import { buildRunEnvironments, findRunEnvironments } from "../packages/openeval/src/run/index.ts";
import { isEngineReachable } from "../packages/openeval/src/sandbox/index.ts";
import { benchmarkSource, tinyEvalFiles } from "./lib/fixtures.ts";
import { medianPhases, recordPhases, type PhaseTotals } from "./lib/phases.ts";
import { median, now, round } from "./lib/stats.ts";
import { PHASES, withOtherPhases } from "./sandbox.ts";
import type { Section } from "./lib/table.ts";
import { withTempDir, writeTree } from "./lib/temp.ts";

export interface EnvironmentsBench {
  environments: number;
  /** Finding and building every environment, images new to the engine (ms). */
  coldBuildMs: number;
  /** The same again: every image found by its hash, nothing built (ms; aim < 2000 for three). */
  warmBuildMs: number;
  builtWarm: number;
  evalRuns: number;
  /** Wall time per eval run at concurrency 1, standard candidate image vs each eval's environment image (ms). */
  standardMsPerEvalRun: number;
  environmentMsPerEvalRun: number;
  /** Environment minus standard (aim ≤ 500). */
  extraMsPerEvalRun: number;
  /** Where an eval run's time went in each (median ms per phase). */
  phases: { standard: PhaseTotals; environment: PhaseTotals };
}

/** Null without a container engine. */
export async function measureEnvironments(options: { evals: number }): Promise<EnvironmentsBench | null> {
  if (!(await isEngineReachable())) return null;
  await buildCandidateImage();
  return withTempDir("environments", async (root) => {
    const standard = join(root, "standard");
    const withEnvironments = join(root, "environments");
    // A marker new to every bench run, so that the first build is cold for openeval (the engine's layer cache of
    // the Debian base still applies, as it would for a user).
    const marker = randomBytes(6).toString("hex");
    const shape = { models: ["control/positive"], repetitions: 1 };
    const standardFiles: Record<string, string> = { "benchmark.ts": benchmarkSource(shape) };
    const environmentFiles: Record<string, string> = { "benchmark.ts": benchmarkSource(shape) };
    for (let n = 1; n <= options.evals; n++) {
      const files = tinyEvalFiles(n);
      Object.assign(standardFiles, files);
      const id = Object.keys(files)[0]!.split("/")[1]!;
      Object.assign(environmentFiles, files, {
        [`evals/${id}/environment/Dockerfile`]: `FROM debian:bookworm-slim\nWORKDIR /app\nCOPY notes.txt /app/notes.txt\n`,
        [`evals/${id}/environment/notes.txt`]: `${marker} ${id}\n`,
      });
    }
    await writeTree(standard, standardFiles);
    await writeTree(withEnvironments, environmentFiles);

    const benchmark = await loadBenchmark(withEnvironments);
    const build = async () => {
      let built = 0;
      const start = now();
      await buildRunEnvironments(benchmark.evals, await findRunEnvironments(benchmark.evals), {
        logDirectory: join(root, "builds"),
        onProgress: (_evalId, event) => {
          if (event.kind === "phase" && event.message.startsWith("Building ")) built++;
        },
      });
      return { ms: now() - start, built };
    };
    const cold = await build();
    const warm = await build();

    // Alternated, twice each, so that a change of the machine's load falls on both alike.
    const samples: Record<"standard" | "environment", EvalRunSample[]> = { standard: [], environment: [] };
    for (let round = 0; round < 2; round++) {
      samples.standard.push(await measureEvalRuns(standard));
      samples.environment.push(await measureEvalRuns(withEnvironments));
    }
    const standardMs = median(samples.standard.map((sample) => sample.msPerEvalRun));
    const environmentMs = median(samples.environment.map((sample) => sample.msPerEvalRun));
    return {
      environments: options.evals,
      coldBuildMs: round(cold.ms),
      warmBuildMs: round(warm.ms),
      builtWarm: warm.built,
      evalRuns: samples.environment.reduce((total, sample) => total + sample.evalRuns, 0),
      standardMsPerEvalRun: round(standardMs),
      environmentMsPerEvalRun: round(environmentMs),
      extraMsPerEvalRun: round(environmentMs - standardMs),
      phases: {
        standard: medianPhases(new Map(samples.standard.flatMap((sample) => [...sample.phases]))),
        environment: medianPhases(new Map(samples.environment.flatMap((sample) => [...sample.phases]))),
      },
    };
  });
}

interface EvalRunSample {
  evalRuns: number;
  msPerEvalRun: number;
  phases: Map<string, PhaseTotals>;
}

/** One new run of the benchmark at concurrency 1, in containers, timed as a whole and phase by phase. */
async function measureEvalRuns(directory: string): Promise<EvalRunSample> {
  let evalRuns = 0;
  const recorder = recordPhases();
  const start = now();
  await runBenchmark({
    benchmark: directory,
    new: true,
    concurrency: 1,
    scope: { isolation: "container" },
    onEvent: (event) => {
      recorder.onEvent(event);
      if (event.type === "candidate.finished") evalRuns++;
    },
  }).finally(() => recorder.stop());
  const ms = now() - start;
  return { evalRuns, msPerEvalRun: ms / Math.max(1, evalRuns), phases: withOtherPhases(recorder.stop()) };
}

export function sectionEnvironments(result: EnvironmentsBench): Section[] {
  const cell = (phases: PhaseTotals, name: string) => (phases[name] === undefined ? "—" : String(phases[name]));
  const { standard, environment } = result.phases;
  const phaseRows = PHASES.filter(([name]) => standard[name] !== undefined || environment[name] !== undefined).map(
    ([name, label]) => [
      label,
      cell(standard, name),
      cell(environment, name),
      String(round((environment[name] ?? 0) - (standard[name] ?? 0))),
    ],
  );
  return [
    {
      title: "10. Task environments: environment images built cold and warm, and eval runs in them",
      columns: ["measurement", "value"],
      rows: [
        [`build ${result.environments} environments, cold (s)`, (result.coldBuildMs / 1000).toFixed(1)],
        [`build ${result.environments} environments again, warm (s)`, (result.warmBuildMs / 1000).toFixed(2)],
        ["images built by the warm pass", String(result.builtWarm)],
        ["ms per eval run, standard candidate image", String(result.standardMsPerEvalRun)],
        ["ms per eval run, the eval's environment image", String(result.environmentMsPerEvalRun)],
        ["environment − standard, ms per eval run", String(result.extraMsPerEvalRun)],
      ],
      notes: [
        `Warm: every image found by its content hash (aim < 2 s for three, nothing built). ${result.evalRuns} eval runs in each image, at concurrency 1, in two alternating rounds (medians), control/positive in containers (aim ≤ +500 ms per eval run).`,
      ],
    },
    {
      title: "10. Task environments, phases (median ms per eval run)",
      columns: ["phase", "standard ms", "environment ms", "environment − standard ms"],
      rows: phaseRows,
      notes: ["Indented phases run inside the one above them (see section 8)."],
    },
  ];
}
