// `openeval image --verification`: images/verification/ plus its vendored npm packages, through the one labelled-image
// pipeline: built and pinned by its immutable id, or found again by the folder's hash (or named by the benchmark).
import {
  buildLabelledImage,
  findLabelledImage,
  findNamedImage,
  IMAGE_ROLES,
  openSandboxEngine,
  type EngineOptions,
  type ImageProgress,
  type LabelledImage,
  type LabelledImageSpec,
} from "../../sandbox/index.ts";
import { DEFAULT_CONTEXT_DIRECTORY, readNpmPackages } from "./image-context.ts";
import { defaultCacheDirectory, readVendorEntries } from "./vendor-packages.ts";
import { openVerificationEngine, withVerificationErrors } from "./verification-sandbox.ts";

export const IMAGE_REPOSITORY = IMAGE_ROLES.verification.repository;
/** `judge.verification.image` naming the standard image (built from images/verification/), as OpenEval spells it. */
export const VERIFICATION_IMAGE = `${IMAGE_REPOSITORY}:standard`;

export type VerificationImage = LabelledImage;

export type BuildProgress = ImageProgress;

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
  const engine = await openSandboxEngine("container", { container: options });
  return withVerificationErrors(() =>
    buildLabelledImage(engine, verificationImageSpec(options), {
      generate: (files, progress) => {
        progress({ kind: "phase", message: "Preparing the build context (npm packages from npm-packages.json)" });
        return readVendorEntries(readNpmPackages(files), options.cacheDirectory ?? defaultCacheDirectory(), (message) =>
          progress({ kind: "phase", message }),
        );
      },
      ...(options.force ? { force: true } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    }),
  );
}

/**
 * The image built from the current folder contents (or the named `image`), pinned by id; otherwise OE_IMAGE_MISSING /
 * OE_IMAGE_STALE naming the command to run.
 * @example
 * const { imageId } = await resolveVerificationImage({ engine: settings.judge.verification?.engine });
 */
export async function resolveVerificationImage(options: ResolveImageOptions = {}): Promise<VerificationImage> {
  const engine = await openVerificationEngine(options);
  if (options.image && options.image !== VERIFICATION_IMAGE)
    return withVerificationErrors(() =>
      findNamedImage(engine, options.image!, "verification", "judge.verification.image"),
    );
  return withVerificationErrors(() => findLabelledImage(engine, verificationImageSpec(options)));
}

function verificationImageSpec(options: ImageOptions): LabelledImageSpec {
  return { role: "verification", contextDirectory: options.contextDirectory ?? DEFAULT_CONTEXT_DIRECTORY };
}
