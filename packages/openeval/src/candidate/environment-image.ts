// An eval's environment image (docs/design/task-environments.md): its environment/ built as its author wrote it (the
// base), then the harness layer (images/environment/) over it with the pinned OpenCode and Bun from this project's
// npm install. Each is labelled with a content hash — the base with its folder's, the layer with the base's hash,
// its own folder's and the pinned versions' — so an unchanged environment is found again, never rebuilt, and a changed
// one gets a new image id, which enters its candidates' fingerprints.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EvalEnvironment } from "../load/index.ts";
import {
  buildLabelledImage,
  ContainerError,
  findBuiltImage,
  findNamedImage,
  type ContainerEngine,
  type ImageProgress,
  type LabelledImage,
  type LabelledImageSpec,
} from "../sandbox/index.ts";
import { sha256 } from "../util/hash.ts";
import { imageContextDirectory } from "../util/images-directory.ts";
import { CANDIDATE_CONTEXT_DIRECTORY, pinnedBinaries, pinnedBinariesHash } from "./candidate-image.ts";

const LAYER_CONTEXT_DIRECTORY = imageContextDirectory("environment");
/** The egress forwarder is the candidate image's own program, shared rather than copied. */
const EGRESS_PROGRAM = join(CANDIDATE_CONTEXT_DIRECTORY, "openeval-egress.ts");
const LABELS = { workdir: "openeval.environment-workdir", user: "openeval.environment-user" } as const;

export interface EnvironmentImage extends LabelledImage {
  /** The candidate's workspace: the environment's working directory (its Dockerfile's WORKDIR). */
  workdir: string;
  /** The environment's Dockerfile names no USER: the agent's commands run as root, on a writable root. */
  asRoot: boolean;
}

export interface EnvironmentBuildOptions {
  /** Build even when images with these hashes exist (the engine's layer cache still applies). */
  force?: boolean;
  onProgress?: (event: ImageProgress) => void;
}

/**
 * Builds the environment's image (base, then harness layer), or finds the one built from the same contents.
 * @throws ContainerError OE_IMAGE_BUILD_FAILED naming the step (`environment/Dockerfile` or the harness layer).
 */
export async function buildEnvironmentImage(
  engine: ContainerEngine,
  environment: EvalEnvironment,
  options: EnvironmentBuildOptions = {},
): Promise<EnvironmentImage> {
  const shared = {
    ...(options.force ? { force: true } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  const spec = baseSpec(environment);
  const base = spec
    ? await buildLabelledImage(engine, spec, { generate: async () => [], ...shared })
    : await namedBase(engine, environment);
  const facts = await baseFacts(engine, base.imageId, environment.agentUser);
  const layer = await buildLabelledImage(engine, await layerSpec(environment, base, facts), {
    generate: async (_files, progress) => {
      progress({
        kind: "phase",
        message: "Adding the harness layer: the pinned OpenCode and Bun from this project's npm install",
      });
      return [
        ...(await pinnedBinaries("oe-bin")),
        {
          type: "file",
          path: "oe/openeval-egress.ts",
          data: new Uint8Array(await readFile(EGRESS_PROGRAM)),
          mode: 0o644,
        },
      ];
    },
    ...shared,
  });
  return { ...layer, ...facts };
}

/** The environment's image built from its current contents, or null when it (or its base) needs building. */
export async function findEnvironmentImage(
  engine: ContainerEngine,
  environment: EvalEnvironment,
): Promise<EnvironmentImage | null> {
  const spec = baseSpec(environment);
  const base = spec ? await findBuiltImage(engine, spec) : await namedBase(engine, environment).catch(() => null);
  if (!base) return null;
  const layer = await findBuiltImage(engine, await layerSpec(environment, base, null));
  if (!layer) return null;
  const labels = (await engine.inspectImage(layer.imageId))?.labels ?? {};
  const workdir = labels[LABELS.workdir];
  if (!workdir) return null;
  return { ...layer, workdir, asRoot: isRoot(labels[LABELS.user] ?? "") };
}

/** The base built from environment/; null when the environment names a prebuilt image (task.toml docker_image). */
function baseSpec(environment: EvalEnvironment): LabelledImageSpec | null {
  if (environment.directory === null) return null;
  return {
    role: "environment-base",
    contextDirectory: environment.directory,
    generatedFolder: null,
    timeoutMs: environment.buildTimeoutMs,
  };
}

/** A prebuilt base, pinned by its id (which stands for its contents in the layer's hash); OE_IMAGE_MISSING without it. */
async function namedBase(engine: ContainerEngine, environment: EvalEnvironment): Promise<LabelledImage> {
  const image = await findNamedImage(
    engine,
    environment.baseImage!,
    "environment-base",
    "task.toml environment.docker_image",
  );
  return { ...image, contextHash: image.imageId };
}

/** `facts` are needed to build (they become its build arguments and labels), not to find it: they follow from the base. */
async function layerSpec(
  environment: EvalEnvironment,
  base: LabelledImage,
  facts: (Omit<EnvironmentImage, keyof LabelledImage> & { user: string }) | null,
): Promise<LabelledImageSpec> {
  return {
    role: "environment",
    contextDirectory: LAYER_CONTEXT_DIRECTORY,
    extraHash: `\0base:${base.contextHash}${pinnedBinariesHash()}\0egress:${sha256(await readFile(EGRESS_PROGRAM))}${environment.agentUser === undefined ? "" : `\0user:${environment.agentUser}`}`,
    timeoutMs: environment.buildTimeoutMs,
    ...(facts
      ? {
          buildArgs: { BASE_IMAGE: base.imageId, ENVIRONMENT_USER: facts.user },
          labels: { [LABELS.workdir]: facts.workdir, [LABELS.user]: facts.user },
        }
      : {}),
  };
}

/** The base image's WORKDIR (required: it is the workspace) and USER. */
async function baseFacts(engine: ContainerEngine, imageId: string, agentUser: string | undefined) {
  const image = await engine.inspectImage(imageId);
  const workdir = image?.workdir ?? "";
  const user = agentUser ?? image?.user ?? "";
  if (!workdir.startsWith("/") || workdir === "/")
    throw new ContainerError({
      code: "OE_IMAGE_BUILD_FAILED",
      tag: imageId,
      problem:
        "environment/Dockerfile sets no working directory below /; the candidate's workspace is the image's WORKDIR: add one such as `WORKDIR /app`",
    });
  return { workdir, user, asRoot: isRoot(user) };
}

function isRoot(user: string): boolean {
  return ["", "root", "0"].includes(user.split(":")[0]!);
}
