// `openeval image [--verification] [--candidate] [--environments]`: build (or find) the sandbox images and print
// their immutable ids. With no flag it builds all three kinds (environments when the benchmark has any).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildCandidateImage } from "../candidate/index.ts";
import { buildVerificationImage, type BuildProgress } from "../judge/index.ts";
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { buildRunEnvironments, ENVIRONMENT_BUILDS_DIRECTORY, findRunEnvironments, homeEngine } from "../run/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

interface BuiltImage {
  imageId: string;
  tag: string;
  contextHash: string;
}

export const imageCommand = defineCommand("image", {
  async run(flags) {
    const all = !flags.verification && !flags.candidate && !flags.environments;
    const benchmarkDirectory = flags.benchmark as string;
    const benchmark = existsSync(join(benchmarkDirectory, "benchmark.ts"))
      ? await loadBenchmark(benchmarkDirectory)
      : null;
    const withEnvironments = benchmark?.evals.some((evaluation) => evaluation.environment) ?? false;
    if (flags.environments && !withEnvironments)
      throw new UsageError("valueInvalid", {
        flag: "environments",
        takes: "a benchmark folder (--benchmark) with evals that have environment/ (or are Harbor tasks)",
        got: `${benchmarkDirectory}, which has none`,
      });
    const engine = chooseEngine(flags.engine as string | undefined, benchmark);
    const options = {
      // Built where a run finds them: the benchmark's first engine (a run carries them to the others).
      ...(benchmark ? homeEngine(benchmark.settings) : {}),
      engine,
      force: flags.force === true,
      onProgress: (event: BuildProgress) => console.error(formatProgress(event)),
    };
    const images: Record<string, BuiltImage> = {};
    if (all || flags.verification) images.verification = await buildVerificationImage(options);
    if (all || flags.candidate) images.candidate = await buildCandidateImage(options);
    const environments =
      benchmark && withEnvironments && (all || flags.environments)
        ? await buildEnvironments(benchmark, options.force)
        : null;
    if (flags.json === true) console.log(JSON.stringify({ ...images, ...(environments ? { environments } : {}) }));
    else {
      for (const [kind, image] of Object.entries(images)) {
        console.log(`${kind === "verification" ? "Verification" : "Candidate"} image ${image.tag}`);
        console.log(`  id: ${image.imageId}`);
        console.log(`  built from images/${kind}/ with hash ${image.contextHash}`);
      }
      for (const [evalId, built] of Object.entries(environments ?? {})) {
        console.log(`Environment of eval ${evalId}: ${"error" in built ? `did not build` : built.tag}`);
        console.log(`  ${"error" in built ? built.error : `id: ${built.imageId}`}`);
      }
    }
    return Object.values(environments ?? {}).some((built) => "error" in built) ? EXIT.invalidInput : EXIT.pass;
  },
});

/** Every eval's environment, built unless built from the same contents; each build's log in results/environment-builds/. */
async function buildEnvironments(benchmark: BenchmarkDefinition, force: boolean) {
  const engine = homeEngine(benchmark.settings);
  const found = await findRunEnvironments(benchmark.evals, engine);
  const built = await buildRunEnvironments(benchmark.evals, found, {
    engine,
    force,
    logDirectory: join(benchmark.directory, "results", ENVIRONMENT_BUILDS_DIRECTORY),
    onProgress: (evalId, event) => console.error(`[${evalId}] ${formatProgress(event)}`),
  });
  const results: Record<string, BuiltImage | { error: string }> = {};
  for (const evaluation of benchmark.evals.filter((evaluation) => evaluation.environment)) {
    const image = built.imageOf(evaluation.id);
    results[evaluation.id] = image
      ? { imageId: image.imageId, tag: image.tag, contextHash: image.contextHash }
      : { error: built.problemFor(evaluation.id) ?? "not built" };
  }
  return results;
}

function chooseEngine(
  flag: string | undefined,
  benchmark: BenchmarkDefinition | null,
): "docker" | "podman" | undefined {
  if (flag !== undefined) {
    if (flag !== "docker" && flag !== "podman")
      throw new UsageError("valueInvalid", { flag: "engine", takes: "docker or podman", got: flag });
    return flag;
  }
  return benchmark?.settings.judge.verification?.engine;
}

function formatProgress(event: BuildProgress): string {
  return event.kind === "phase" ? `» ${event.message}` : `  ${event.message}`;
}
