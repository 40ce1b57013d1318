// `openeval image --candidate`: builds images/candidate/ FROM the local base image with the pinned OpenCode binary
// and Bun taken from this project's own npm install (no download), labels it with a hash of the folder and of
// those two versions, and pins it by its immutable id; resolveCandidateImage() finds it again or says how to build.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { resolveOpenCodeBinary } from "../opencode/index.ts";
import { connectContainerEngine, contextEntries, hashContext, packTar, readContextFiles, SandboxError, type ContainerEngine, type EngineOptions, type TarEntry } from "../sandbox/index.ts";
import { sha256 } from "../util/hash.ts";
import { imageContextDirectory } from "../util/images-directory.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import { BUILD_CANDIDATE_IMAGE_COMMAND, CandidateError } from "./errors.ts";

export const CANDIDATE_CONTEXT_DIRECTORY = imageContextDirectory("candidate");
export const CANDIDATE_IMAGE_REPOSITORY = "openeval-candidate";
const LABELS = { image: "openeval.image", contextHash: "openeval.context-hash" } as const;

export interface CandidateImage {
  /** The immutable image id (`sha256:…`): what runs, and what enters the candidate fingerprint. */
  imageId: string;
  tag: string;
  contextHash: string;
}

export interface CandidateImageOptions extends EngineOptions {
  contextDirectory?: string;
  /** Build even when an image with this context hash exists (the engine's layer cache still applies). */
  force?: boolean;
  onProgress?: (event: { kind: "phase" | "output"; message: string }) => void;
}

/**
 * @example
 * const { imageId } = await buildCandidateImage({ onProgress: (event) => console.error(event.message) });
 */
export async function buildCandidateImage(options: CandidateImageOptions = {}): Promise<CandidateImage> {
  const progress = options.onProgress ?? (() => {});
  const engine = await openEngine(options);
  const { files, contextHash } = await readContext(options.contextDirectory);
  const tag = `${CANDIDATE_IMAGE_REPOSITORY}:${contextHash.slice(0, 12)}`;
  const existing = options.force ? null : await findImage(engine, contextHash);
  if (existing) {
    progress({ kind: "phase", message: `Candidate image for context ${contextHash.slice(0, 12)} already built: ${existing}` });
    return { imageId: existing, tag, contextHash };
  }
  progress({ kind: "phase", message: `Adding OpenCode ${OPENCODE_VERSION} and Bun ${bunVersion()} from this project's npm install` });
  const context = packTar(contextEntries(files, await vendorEntries()));
  progress({ kind: "phase", message: `Building ${tag} on ${engine.address} (${Math.round(context.length / 1_048_576)} MiB context)` });
  const imageId = await engine
    .buildImage({ context, tag, labels: { [LABELS.image]: "candidate", [LABELS.contextHash]: contextHash }, onOutput: (message) => progress({ kind: "output", message }) })
    .catch((error: unknown) => {
      throw new CandidateError("IMAGE_BUILD_FAILED", (error as Error).message, { cause: error });
    });
  progress({ kind: "phase", message: `Built ${tag}: ${imageId}` });
  return { imageId, tag, contextHash };
}

/** The image built from the current folder and pinned versions, by id; else IMAGE_MISSING / IMAGE_STALE. */
export async function resolveCandidateImage(options: CandidateImageOptions = {}): Promise<CandidateImage> {
  const engine = await openEngine(options);
  const { contextHash } = await readContext(options.contextDirectory);
  const imageId = await findImage(engine, contextHash);
  if (imageId) return { imageId, tag: `${CANDIDATE_IMAGE_REPOSITORY}:${contextHash.slice(0, 12)}`, contextHash };
  const others = await engine.findImages({ [LABELS.image]: "candidate" });
  if (others.length > 0) {
    throw new CandidateError(
      "IMAGE_STALE",
      `The candidate image on ${engine.address} was built from an older images/candidate/ or another OpenCode/Bun version; rebuild it with \`${BUILD_CANDIDATE_IMAGE_COMMAND}\``,
    );
  }
  throw new CandidateError("IMAGE_MISSING", `No candidate image on ${engine.address}; build it with \`${BUILD_CANDIDATE_IMAGE_COMMAND}\``);
}

async function openEngine(options: EngineOptions): Promise<ContainerEngine> {
  try {
    return await connectContainerEngine(options);
  } catch (error) {
    if (error instanceof SandboxError) throw new CandidateError("ENGINE_UNREACHABLE", error.message, { cause: error });
    throw error;
  }
}

/** The folder's files and their hash, extended by the versions of the two binaries vendor/ will hold. */
async function readContext(directory = CANDIDATE_CONTEXT_DIRECTORY) {
  const files = await readContextFiles(directory).catch((error: unknown) => {
    throw new CandidateError("IMAGE_BUILD_FAILED", (error as Error).message, { cause: error });
  });
  return { files, contextHash: sha256(`${hashContext(files)}\0opencode-ai@${OPENCODE_VERSION}\0bun@${bunVersion()}`) };
}

async function findImage(engine: ContainerEngine, contextHash: string): Promise<string | null> {
  return (await engine.findImages({ [LABELS.contextHash]: contextHash }))[0]?.id ?? null;
}

function bunPackageDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve("bun/package.json"));
}

function bunVersion(): string {
  return (createRequire(import.meta.url)("bun/package.json") as { version: string }).version;
}

/** The pinned binaries, exactly as the process backend runs them: OpenCode's and Bun's own npm packages. */
async function vendorEntries(): Promise<TarEntry[]> {
  return [
    { type: "directory", path: "vendor", mode: 0o755 },
    { type: "file", path: "vendor/opencode", data: new Uint8Array(await readFile(resolveOpenCodeBinary())), mode: 0o755 },
    { type: "file", path: "vendor/bun", data: new Uint8Array(await readFile(join(bunPackageDirectory(), "bin", "bun.exe"))), mode: 0o755 },
  ];
}
