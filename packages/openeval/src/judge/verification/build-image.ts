// `openeval image --verification`: builds images/verification/ through the engine API, labels the image with the
// folder's hash and pins it by its immutable id; resolveVerificationImage() finds that image again or says how to
// build it.
import type { Readable } from "node:stream";
import { connectEngine, errorMessage, type Engine, type EngineOptions } from "./engine.ts";
import { BUILD_IMAGE_COMMAND, VerificationError } from "./errors.ts";
import { contextEntries, DEFAULT_CONTEXT_DIRECTORY, hashContext, readContextFiles, readNpmPackages } from "./image-context.ts";
import { packTar } from "./tar.ts";
import { defaultCacheDirectory, readVendorEntries } from "./vendor-packages.ts";

export const IMAGE_REPOSITORY = "openeval-verification";
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
  const engine = await connectEngine(options);
  const files = await readContextFiles(options.contextDirectory ?? DEFAULT_CONTEXT_DIRECTORY);
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
  const imageId = await build(engine, Buffer.from(context.buffer, context.byteOffset, context.length), tag, contextHash, progress);
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
  const engine = await connectEngine(options);
  if (options.image) return resolveNamedImage(engine, options.image);
  const contextHash = hashContext(await readContextFiles(options.contextDirectory ?? DEFAULT_CONTEXT_DIRECTORY));
  const tag = `${IMAGE_REPOSITORY}:${contextHash.slice(0, 12)}`;
  const imageId = await findImage(engine, contextHash);
  if (imageId) return { imageId, tag, contextHash };
  const others = await engine.docker.listImages({ filters: { label: [`${LABELS.image}=verification`] } });
  if (others.length > 0) {
    throw new VerificationError(
      "IMAGE_STALE",
      `The verification image on ${engine.address} was built from an older images/verification/ (the folder now hashes to ` +
        `${contextHash.slice(0, 12)}); rebuild it with \`${BUILD_IMAGE_COMMAND}\``,
    );
  }
  throw new VerificationError("IMAGE_MISSING", `No verification image on ${engine.address}; build it with \`${BUILD_IMAGE_COMMAND}\``);
}

async function resolveNamedImage(engine: Engine, name: string): Promise<VerificationImage> {
  try {
    const image = await engine.docker.getImage(name).inspect();
    return { imageId: image.Id, tag: name, contextHash: image.Config?.Labels?.[LABELS.contextHash] ?? "" };
  } catch (error) {
    const hint = name.startsWith(`${IMAGE_REPOSITORY}:`) ? `build it with \`${BUILD_IMAGE_COMMAND}\`` : `build or pull it on that engine`;
    throw new VerificationError("IMAGE_MISSING", `The verification image ${name} (judge.verification.image) is not on ${engine.address}: ${errorMessage(error)}; ${hint}`, { cause: error });
  }
}

async function findImage(engine: Engine, contextHash: string): Promise<string | null> {
  const images = await engine.docker.listImages({ filters: { label: [`${LABELS.contextHash}=${contextHash}`] } });
  return images.sort((a, b) => b.Created - a.Created)[0]?.Id ?? null;
}

async function build(engine: Engine, context: Buffer, tag: string, contextHash: string, progress: (event: BuildProgress) => void): Promise<string> {
  let stream: Readable;
  try {
    // A Buffer (typed as a stream in @types/dockerode) is sent with a Content-Length instead of chunked.
    stream = (await engine.docker.buildImage(context as unknown as NodeJS.ReadableStream, {
      t: tag,
      labels: { [LABELS.image]: "verification", [LABELS.contextHash]: contextHash },
      // Builds fetch Debian packages; a daemon started without a bridge (as .ci/setup-container-engine.sh does)
      // has no other network for them. Verification containers themselves always run with NetworkMode "none".
      networkmode: "host",
      rm: true,
      forcerm: true,
    })) as unknown as Readable;
  } catch (error) {
    throw new VerificationError("IMAGE_BUILD_FAILED", `The engine refused the build: ${errorMessage(error)}`, { cause: error });
  }
  let imageId: string | null = null;
  let failure: string | null = null;
  const tail: string[] = [];
  for await (const message of readJsonLines(stream)) {
    if (message.error) failure = message.error;
    if (message.aux?.ID) imageId = message.aux.ID;
    for (const line of (message.stream ?? "").split("\n")) {
      if (line.trim() === "") continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      progress({ kind: "output", message: line });
      // The classic builder reports the final id only as text.
      const built = /^Successfully built ([0-9a-f]{12,64})$/.exec(line.trim());
      if (built && !imageId) imageId = built[1]!;
    }
  }
  if (failure) {
    throw new VerificationError("IMAGE_BUILD_FAILED", `The verification image did not build: ${failure}\nLast build output:\n${tail.join("\n")}`);
  }
  // Whatever the build printed, the tag now names the image; inspect gives the full immutable id.
  try {
    return (await engine.docker.getImage(tag).inspect()).Id;
  } catch (error) {
    throw new VerificationError("IMAGE_BUILD_FAILED", `The build ended without an image (${imageId ?? "no id reported"}): ${errorMessage(error)}`, { cause: error });
  }
}

async function* readJsonLines(stream: Readable): AsyncGenerator<{ stream?: string; error?: string; aux?: { ID?: string } }> {
  let buffer = "";
  for await (const chunk of stream) {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
  if (buffer.trim()) yield JSON.parse(buffer.trim());
}
