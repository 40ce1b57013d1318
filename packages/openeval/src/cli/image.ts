// `openeval image --verification`: build (or find) the verification image and print its immutable id.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildVerificationImage, type BuildProgress } from "../judge/verification/index.ts";
import { loadBenchmark } from "../load/index.ts";
import { BENCHMARK_OPTION, defineCommand } from "./command.ts";
import { EXIT, UsageError } from "./errors.ts";

export const imageCommand = defineCommand({
  name: "image",
  usage: "image --verification [--engine docker|podman] [--force] [--json] [--benchmark <dir>]",
  summary:
    "Build the sandboxed verification image from images/verification/ (Bun, Python, git, Chromium + Playwright) and record its immutable id. " +
    "Uses DOCKER_HOST, --engine, or benchmark.ts judge.verification.engine.",
  options: {
    ...BENCHMARK_OPTION,
    verification: { type: "boolean", default: false },
    engine: { type: "string" },
    force: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
  async run(flags) {
    if (!flags.verification) throw new UsageError("say which image to build: `openeval image --verification` (the only image so far)");
    const engine = await chooseEngine(flags.engine as string | undefined, flags.benchmark as string);
    const json = flags.json === true;
    const image = await buildVerificationImage({ engine, force: flags.force === true, onProgress: (event) => console.error(formatProgress(event)) });
    if (json) console.log(JSON.stringify(image));
    else {
      console.log(`Verification image ${image.tag}`);
      console.log(`  id: ${image.imageId}`);
      console.log(`  built from images/verification/ with hash ${image.contextHash}`);
    }
    return EXIT.pass;
  },
});

async function chooseEngine(flag: string | undefined, benchmarkDirectory: string): Promise<"docker" | "podman" | undefined> {
  if (flag !== undefined) {
    if (flag !== "docker" && flag !== "podman") throw new UsageError(`--engine takes docker or podman; got "${flag}"`);
    return flag;
  }
  if (!existsSync(join(benchmarkDirectory, "benchmark.ts"))) return undefined;
  return (await loadBenchmark(benchmarkDirectory)).settings.judge.verification?.engine;
}

function formatProgress(event: BuildProgress): string {
  return event.kind === "phase" ? `» ${event.message}` : `  ${event.message}`;
}
