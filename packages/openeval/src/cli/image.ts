// `openeval image [--verification] [--candidate]`: build (or find) the sandbox images and print their immutable ids.
// With neither flag it builds both.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildCandidateImage } from "../candidate/index.ts";
import { buildVerificationImage, type BuildProgress } from "../judge/index.ts";
import { loadBenchmark } from "../load/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

export const imageCommand = defineCommand("image", {
  async run(flags) {
    const both = !flags.verification && !flags.candidate;
    const engine = await chooseEngine(flags.engine as string | undefined, flags.benchmark as string);
    const options = {
      engine,
      force: flags.force === true,
      onProgress: (event: BuildProgress) => console.error(formatProgress(event)),
    };
    const images: Record<string, { imageId: string; tag: string; contextHash: string }> = {};
    if (both || flags.verification) images.verification = await buildVerificationImage(options);
    if (both || flags.candidate) images.candidate = await buildCandidateImage(options);
    if (flags.json === true) console.log(JSON.stringify(images));
    else {
      for (const [kind, image] of Object.entries(images)) {
        console.log(`${kind === "verification" ? "Verification" : "Candidate"} image ${image.tag}`);
        console.log(`  id: ${image.imageId}`);
        console.log(`  built from images/${kind}/ with hash ${image.contextHash}`);
      }
    }
    return EXIT.pass;
  },
});

async function chooseEngine(
  flag: string | undefined,
  benchmarkDirectory: string,
): Promise<"docker" | "podman" | undefined> {
  if (flag !== undefined) {
    if (flag !== "docker" && flag !== "podman")
      throw new UsageError("valueInvalid", { flag: "engine", takes: "docker or podman", got: flag });
    return flag;
  }
  if (!existsSync(join(benchmarkDirectory, "benchmark.ts"))) return undefined;
  return (await loadBenchmark(benchmarkDirectory)).settings.judge.verification?.engine;
}

function formatProgress(event: BuildProgress): string {
  return event.kind === "phase" ? `» ${event.message}` : `  ${event.message}`;
}
