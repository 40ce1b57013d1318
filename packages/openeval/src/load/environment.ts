// An eval's own environment: `environment/` holds a Dockerfile and its build context, and the eval's candidates run
// in an image built from it (with the harness's OpenCode and Bun added on top) instead of the standard candidate
// image. Only the folder's shape is checked here; the image is built and pinned by the candidate stage.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

/** How long an environment's image build may take when nothing says otherwise (Harbor's default too). */
export const DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS = 600_000;

export interface EnvironmentLimits {
  cpus?: number;
  memoryMiB?: number;
  /** The container's writable storage (task.toml `storage_mb`); engines that cannot cap it refuse at start. */
  storageMiB?: number;
}

export interface EvalEnvironment {
  /** The environment/ folder (absolute): the Dockerfile at its root is built with the folder as its context. Null
   * when `baseImage` names a prebuilt image instead. */
  directory: string | null;
  /** A prebuilt image on the engine (a Harbor task's `docker_image`), used as it is. */
  baseImage?: string;
  /** Whom the agent's commands run as instead of the Dockerfile's USER (a Harbor task's `[agent] user`). */
  agentUser?: string;
  buildTimeoutMs: number;
  /** The eval's own container limits, over benchmark.ts's `candidate.container`. */
  limits: EnvironmentLimits;
}

/** Compose files Harbor and Docker accept: a multi-container environment, which openeval does not run. */
const COMPOSE_FILES = ["docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml"];

/**
 * @example loadEnvironment("/bench/evals/fix-parser/environment") // { directory, buildTimeoutMs: 600_000, limits: {} }
 * @throws Error naming what the folder lacks or holds that openeval cannot build.
 */
export function loadEnvironment(
  directory: string,
  options: { buildTimeoutMs?: number; limits?: EnvironmentLimits } = {},
): EvalEnvironment {
  if (!statSync(directory).isDirectory())
    throw new Error("must be a folder holding a Dockerfile and its build context");
  const compose = COMPOSE_FILES.find((name) => existsSync(join(directory, name)));
  if (compose)
    throw new Error(
      `holds ${compose}: multi-container (compose) environments are not supported; build one image from environment/Dockerfile`,
    );
  if (!existsSync(join(directory, "Dockerfile")))
    throw new Error("has no Dockerfile; the eval's candidates run in the image built from environment/Dockerfile");
  return {
    directory,
    buildTimeoutMs: options.buildTimeoutMs ?? DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS,
    limits: options.limits ?? {},
  };
}
