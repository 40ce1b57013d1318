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
import { now, round } from "./lib/stats.ts";
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

    const perEvalRun = async (directory: string) => {
      let evalRuns = 0;
      const start = now();
      await runBenchmark({
        benchmark: directory,
        new: true,
        concurrency: 1,
        scope: { isolation: "container" },
        onEvent: (event) => {
          if (event.type === "candidate.finished") evalRuns++;
        },
      });
      return { evalRuns, ms: (now() - start) / Math.max(1, evalRuns) };
    };
    const standardRun = await perEvalRun(standard);
    const environmentRun = await perEvalRun(withEnvironments);
    return {
      environments: options.evals,
      coldBuildMs: round(cold.ms),
      warmBuildMs: round(warm.ms),
      builtWarm: warm.built,
      evalRuns: environmentRun.evalRuns,
      standardMsPerEvalRun: round(standardRun.ms),
      environmentMsPerEvalRun: round(environmentRun.ms),
      extraMsPerEvalRun: round(environmentRun.ms - standardRun.ms),
    };
  });
}

export function sectionEnvironments(result: EnvironmentsBench): Section {
  return {
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
      `Warm: every image found by its content hash (aim < 2 s for three, nothing built). Eval runs at concurrency 1 over ${result.evalRuns} evals, control/positive in containers (aim ≤ +500 ms per eval run).`,
    ],
  };
}
