// The one image pipeline: an image built from a folder of this checkout (plus generated files), labelled with its
// role and a hash of what it was built from, pinned by its immutable id, and found again by that label — or told
// apart as stale (an image of the role, from other contents) or missing. The candidate and verification images are
// both this, with their own folder, generated files and extra hash.
import { sha256 } from "../../util/hash.ts";
import { contextEntries, hashContext, readContextFiles, type ContextFile } from "../image-context.ts";
import { packTar, type TarEntry } from "../tar.ts";
import { openSandboxEngine } from "../engines.ts";
import type { ContainerEngine } from "./container-engine.ts";
import type { EngineOptions } from "./engine.ts";
import { ContainerError, IMAGE_ROLES, type ImageRole } from "./errors.ts";

const IMAGE_LABELS = { role: "openeval.image", contextHash: "openeval.context-hash" } as const;

export interface LabelledImageSpec {
  role: ImageRole;
  /** The image folder (images/<role>/ of this checkout); its files are hashed and sent as the build context. */
  contextDirectory: string;
  /** What else the image is built from (pinned versions the generated files come from), hashed with the folder. */
  extraHash?: string;
  /** The folder's files the builder generates (never read from disk); default vendor/, null: none. */
  generatedFolder?: string | null;
  /** The Dockerfile's ARG values; what they name must be in extraHash. */
  buildArgs?: Record<string, string>;
  /** Labels besides the role and hash (facts about the image its users read back). */
  labels?: Record<string, string>;
  timeoutMs?: number;
}

export interface LabelledImage {
  /** The immutable image id (`sha256:…`): what runs, and what enters a fingerprint. */
  imageId: string;
  /** `<repository>:<first 12 of contextHash>`, for people; never used to run. */
  tag: string;
  contextHash: string;
}

export type ImageProgress =
  | { kind: "phase"; message: string }
  /** A line of the engine's build output (Dockerfile steps, apt output). */
  | { kind: "output"; message: string };

export interface BuildLabelledImageOptions {
  /** The generated files the build adds to the folder's (vendor/), made only when a build is needed. */
  generate(files: ContextFile[], progress: (event: ImageProgress) => void): Promise<TarEntry[]>;
  /** Build even when an image with this context hash exists (the engine's layer cache still applies). */
  force?: boolean;
  onProgress?: (event: ImageProgress) => void;
}

/**
 * Builds the role's image, or finds the one already built from the same contents.
 * @example
 * const image = await buildLabelledImage(engine, { role: "verification", contextDirectory }, { generate: async () => [] });
 */
export async function buildLabelledImage(
  engine: ContainerEngine,
  spec: LabelledImageSpec,
  options: BuildLabelledImageOptions,
): Promise<LabelledImage> {
  const progress = options.onProgress ?? (() => {});
  const { files, contextHash, tag } = await readLabelledContext(spec);
  const existing = options.force ? null : await findByHash(engine, contextHash);
  if (existing) {
    progress({
      kind: "phase",
      message: `${capitalized(spec.role)} image for context ${contextHash.slice(0, 12)} already built: ${existing}`,
    });
    return { imageId: existing, tag, contextHash };
  }
  const context = packTar(contextEntries(files, await options.generate(files, progress)));
  progress({
    kind: "phase",
    message: `Building ${tag} on ${engine.address} (${Math.round(context.length / 1_048_576)} MiB context)`,
  });
  const labels = { ...spec.labels, [IMAGE_LABELS.role]: spec.role, [IMAGE_LABELS.contextHash]: contextHash };
  const imageId = await engine.buildImage({
    context,
    tag,
    labels,
    ...(spec.buildArgs ? { buildArgs: spec.buildArgs } : {}),
    ...(spec.timeoutMs !== undefined ? { timeoutMs: spec.timeoutMs } : {}),
    onOutput: (message) => progress({ kind: "output", message }),
  });
  progress({ kind: "phase", message: `Built ${tag}: ${imageId}` });
  return { imageId, tag, contextHash };
}

/** The role's image built from the current contents, by id; else OE_IMAGE_STALE or OE_IMAGE_MISSING naming the build command. */
export async function findLabelledImage(engine: ContainerEngine, spec: LabelledImageSpec): Promise<LabelledImage> {
  const { contextHash, tag } = await readLabelledContext(spec);
  const imageId = await findByHash(engine, contextHash);
  if (imageId) return { imageId, tag, contextHash };
  const others = await engine.findImages({ [IMAGE_LABELS.role]: spec.role });
  if (others.length > 0)
    throw new ContainerError({ code: "OE_IMAGE_STALE", address: engine.address, role: spec.role, contextHash });
  throw new ContainerError({ code: "OE_IMAGE_MISSING", address: engine.address, role: spec.role });
}

/** The engine that should hold the role's image; OE_ENGINE_UNREACHABLE then names the image's build command too. */
export async function connectImageEngine(role: ImageRole, options: EngineOptions = {}): Promise<ContainerEngine> {
  return openSandboxEngine("container", { container: options }).catch((error: unknown) => {
    throw error instanceof ContainerError ? error.within({ role }) : error;
  });
}

/** An image named by a setting (`setting`), pinned by its id; OE_IMAGE_MISSING when the engine does not have it. */
export async function findNamedImage(
  engine: ContainerEngine,
  name: string,
  role: ImageRole,
  setting: string,
): Promise<LabelledImage> {
  const image = await engine.inspectImage(name);
  if (image) return { imageId: image.id, tag: name, contextHash: image.labels[IMAGE_LABELS.contextHash] ?? "" };
  throw new ContainerError({ code: "OE_IMAGE_MISSING", address: engine.address, image: name, role, setting });
}

/** The role's image built from the current contents, by id, or null when there is none (nothing is built). */
export async function findBuiltImage(engine: ContainerEngine, spec: LabelledImageSpec): Promise<LabelledImage | null> {
  const { contextHash, tag } = await readLabelledContext(spec);
  const imageId = await findByHash(engine, contextHash);
  return imageId ? { imageId, tag, contextHash } : null;
}

async function readLabelledContext(spec: LabelledImageSpec) {
  const files = await readContextFiles(spec.contextDirectory, spec.generatedFolder);
  const folderHash = hashContext(files);
  const contextHash = spec.extraHash === undefined ? folderHash : sha256(`${folderHash}${spec.extraHash}`);
  return { files, contextHash, tag: `${IMAGE_ROLES[spec.role].repository}:${contextHash.slice(0, 12)}` };
}

async function findByHash(engine: ContainerEngine, contextHash: string): Promise<string | null> {
  return (await engine.findImages({ [IMAGE_LABELS.contextHash]: contextHash }))[0]?.id ?? null;
}

function capitalized(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}
