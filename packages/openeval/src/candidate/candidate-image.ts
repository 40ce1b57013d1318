// `openeval image --candidate`: builds images/candidate/ FROM the local base image with the pinned OpenCode binary
// and Bun taken from this project's own npm install (no download), labels it with a hash of the folder and of
// those two versions, and pins it by its immutable id; resolveCandidateImage() finds it again or says how to build.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { resolveOpenCodeBinary } from "../opencode/index.ts";
import {
  buildLabelledImage,
  connectImageEngine,
  findLabelledImage,
  openSandboxEngine,
  type EngineOptions,
  type ImageProgress,
  type LabelledImage,
  type LabelledImageSpec,
  type TarEntry,
} from "../sandbox/index.ts";
import { imageContextDirectory } from "../util/images-directory.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";

export const CANDIDATE_CONTEXT_DIRECTORY = imageContextDirectory("candidate");

export type CandidateImage = LabelledImage;

export interface CandidateImageOptions extends EngineOptions {
  contextDirectory?: string;
  /** Build even when an image with this context hash exists (the engine's layer cache still applies). */
  force?: boolean;
  onProgress?: (event: ImageProgress) => void;
}

/**
 * @example
 * const { imageId } = await buildCandidateImage({ onProgress: (event) => console.error(event.message) });
 */
export async function buildCandidateImage(options: CandidateImageOptions = {}): Promise<CandidateImage> {
  const engine = await openSandboxEngine("container", { container: options });
  return buildLabelledImage(engine, candidateImageSpec(options.contextDirectory), {
    generate: async (_files, progress) => {
      progress({
        kind: "phase",
        message: `Adding OpenCode ${OPENCODE_VERSION} and Bun ${bunVersion()} from this project's npm install`,
      });
      return [{ type: "directory", path: "vendor", mode: 0o755 }, ...(await pinnedBinaries("vendor"))];
    },
    ...(options.force ? { force: true } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

/** The image built from the current folder and pinned versions, by id; else OE_IMAGE_MISSING / OE_IMAGE_STALE. */
export async function resolveCandidateImage(options: CandidateImageOptions = {}): Promise<CandidateImage> {
  return findLabelledImage(
    await connectImageEngine("candidate", options),
    candidateImageSpec(options.contextDirectory),
  );
}

/** images/candidate/, hashed with the versions of the two binaries vendor/ will hold. */
function candidateImageSpec(contextDirectory = CANDIDATE_CONTEXT_DIRECTORY): LabelledImageSpec {
  return { role: "candidate", contextDirectory, extraHash: pinnedBinariesHash() };
}

/** The versions of the two binaries pinnedBinaries() adds, as a hash input of the images that hold them. */
export function pinnedBinariesHash(): string {
  return `\0opencode-ai@${OPENCODE_VERSION}\0bun@${bunVersion()}`;
}

function bunPackageDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve("bun/package.json"));
}

function bunVersion(): string {
  return (createRequire(import.meta.url)("bun/package.json") as { version: string }).version;
}

/** The pinned binaries in `folder`, exactly as the process backend runs them: OpenCode's and Bun's own npm packages. */
export async function pinnedBinaries(folder: string): Promise<TarEntry[]> {
  return [
    {
      type: "file",
      path: `${folder}/opencode`,
      data: new Uint8Array(await readFile(resolveOpenCodeBinary())),
      mode: 0o755,
    },
    {
      type: "file",
      path: `${folder}/bun`,
      data: new Uint8Array(await readFile(join(bunPackageDirectory(), "bin", "bun.exe"))),
      mode: 0o755,
    },
  ];
}
