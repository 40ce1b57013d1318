// `openeval image --verification`: builds images/verification/ through the engine API, labels the image with the
// folder's hash and pins it by its immutable id; resolveVerificationImage() finds that image again or says how to
// build it.
import { contextEntries, hashContext, packTar, readContextFiles, type ContainerEngine, type EngineOptions } from "../../sandbox/index.ts";
import { BUILD_IMAGE_COMMAND, VerificationError } from "./errors.ts";
import { DEFAULT_CONTEXT_DIRECTORY, readNpmPackages } from "./image-context.ts";
import { defaultCacheDirectory, readVendorEntries } from "./vendor-packages.ts";
import { openVerificationEngine, withVerificationErrors } from "./verification-sandbox.ts";

export const IMAGE_REPOSITORY = "openeval-verification";
/** `judge.verification.image` naming the standard image (built from images/verification/), as OpenEval spells it. */
export const VERIFICATION_IMAGE = `${IMAGE_REPOSITORY}:standard`;
export const LABELS = {
  image: "openeval.image",
  contextHash: "openeval.context-hash",
} as const;

export interface VerificationImage {
  /** The immutable image id (`sha256:…`): what runs, and what enters the judge fingerprint. */
  imageId: string;
  /** `openeval-verification:<first 12 of contextHash>`, for people; never used to run. */
  tag: string;
  contextHash: string;
}

export type BuildProgress =
  | { kind: "phase"; message: string }
  /** A line of the engine's build output (Dockerfile steps, apt output). */
  | { kind: "output"; message: string };

export interface ImageOptions extends EngineOptions {
  /** The image folder; default images/verification/ of this checkout. */
  contextDirectory?: string;
}

export interface ResolveImageOptions extends ImageOptions {
  /** A named image to use instead of the standard one (benchmark.ts `judge.verification.image`); pinned by its id. */
  image?: string;
}

export interface BuildImageOptions extends ImageOptions {
  onProgress?: (event: BuildProgress) => void;
  /** Where `npm pack` tarballs are cached; default $XDG_CACHE_HOME/openeval/npm-packs. */
  cacheDirectory?: string;
  /** Build even when an image with this context hash exists (the engine's layer cache still applies). */
  force?: boolean;
}

/**
 * Builds the verification image (or finds the one already built from the same folder contents).
 * @example
 * const { imageId } = await buildVerificationImage({ onProgress: (event) => console.error(event.message) });
 */
export async function buildVerificationImage(options: BuildImageOptions = {}): Promise<VerificationImage> {
  const progress = options.onProgress ?? (() => {});
  const engine = await openVerificationEngine(options);
  const files = await withVerificationErrors(() => readContextFiles(options.contextDirectory ?? DEFAULT_CONTEXT_DIRECTORY));
  const contextHash = hashContext(files);
  const tag = `${IMAGE_REPOSITORY}:${contextHash.slice(0, 12)}`;
  if (!options.force) {
    const existing = await findImage(engine, contextHash);
    if (existing) {
      progress({ kind: "phase", message: `Image for context ${contextHash.slice(0, 12)} already built: ${existing}` });
      return { imageId: existing, tag, contextHash };
    }
  }
  progress({ kind: "phase", message: "Preparing the build context (npm packages from npm-packages.json)" });
  const vendor = await readVendorEntries(readNpmPackages(files), options.cacheDirectory ?? defaultCacheDirectory(), (message) => progress({ kind: "phase", message }));
  const context = packTar(contextEntries(files, vendor));
  progress({ kind: "phase", message: `Building ${tag} on ${engine.address} (${Math.round(context.length / 1_048_576)} MiB context)` });
  const imageId = await withVerificationErrors(() =>
    engine.buildImage({ context, tag, labels: { [LABELS.image]: "verification", [LABELS.contextHash]: contextHash }, onOutput: (message) => progress({ kind: "output", message }) }),
  );
  progress({ kind: "phase", message: `Built ${tag}: ${imageId}` });
  return { imageId, tag, contextHash };
}

/**
 * The image built from the current folder contents (or the named `image`), pinned by id; otherwise IMAGE_MISSING /
 * IMAGE_STALE naming the command to run.
 * @example
 * const { imageId } = await resolveVerificationImage({ engine: settings.judge.verification?.engine });
 */
export async function resolveVerificationImage(options: ResolveImageOptions = {}): Promise<VerificationImage> {
  const engine = await openVerificationEngine(options);
  if (options.image && options.image !== VERIFICATION_IMAGE) return resolveNamedImage(engine, options.image);
  const contextHash = hashContext(await withVerificationErrors(() => readContextFiles(options.contextDirectory ?? DEFAULT_CONTEXT_DIRECTORY)));
  const tag = `${IMAGE_REPOSITORY}:${contextHash.slice(0, 12)}`;
  const imageId = await findImage(engine, contextHash);
  if (imageId) return { imageId, tag, contextHash };
  const others = await withVerificationErrors(() => engine.findImages({ [LABELS.image]: "verification" }));
  if (others.length > 0) {
    throw new VerificationError(
      "IMAGE_STALE",
      `The verification image on ${engine.address} was built from an older images/verification/ (the folder now hashes to ` +
        `${contextHash.slice(0, 12)}); rebuild it with \`${BUILD_IMAGE_COMMAND}\``,
    );
  }
  throw new VerificationError("IMAGE_MISSING", `No verification image on ${engine.address}; build it with \`${BUILD_IMAGE_COMMAND}\``);
}

async function resolveNamedImage(engine: ContainerEngine, name: string): Promise<VerificationImage> {
  const image = await withVerificationErrors(() => engine.inspectImage(name));
  if (image) return { imageId: image.id, tag: name, contextHash: image.labels[LABELS.contextHash] ?? "" };
  const hint = name.startsWith(`${IMAGE_REPOSITORY}:`) ? `build it with \`${BUILD_IMAGE_COMMAND}\`` : `build or pull it on that engine`;
  throw new VerificationError("IMAGE_MISSING", `The verification image ${name} (judge.verification.image) is not on ${engine.address}; ${hint}`);
}

async function findImage(engine: ContainerEngine, contextHash: string): Promise<string | null> {
  return (await withVerificationErrors(() => engine.findImages({ [LABELS.contextHash]: contextHash })))[0]?.id ?? null;
}
