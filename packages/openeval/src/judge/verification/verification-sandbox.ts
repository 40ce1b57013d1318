// Verification's policy on the sandbox stage: a container from the pinned verification image with no
// network, a read-only root, engine-managed /workspace and /verification folders (never host mounts), the image's
// non-root user, memory/CPU/pids limits and no environment from the host. Engine errors become VerificationErrors.
import {
  connectImageEngine,
  ContainerError,
  SandboxError,
  type ContainerEngine,
  type EngineOptions,
  type SandboxSpec,
} from "../../sandbox/index.ts";
import { VerificationError } from "./errors.ts";
import type { ParsedVerificationLimits } from "../../recording/index.ts";

export const WORKSPACE = "/workspace";
export const CHECK_FILES = "/verification";

export const CONTAINER_LABELS = {
  role: "openeval.sandbox",
  verification: "openeval.verification",
  judgeRun: "openeval.judge-run",
} as const;

/**
 * With `environment`, the container is the eval's environment image: the snapshot goes to an empty working
 * directory and its root stays writable (its checks run as root, without capabilities, as its Dockerfile expects).
 */
export function verificationSpec(options: {
  imageId: string;
  limits: ParsedVerificationLimits;
  timeoutMs: number;
  id: string;
  judgeRun: string;
  environment?: { workdir: string };
}): SandboxSpec {
  const workdir = options.environment?.workdir ?? WORKSPACE;
  return {
    image: options.imageId,
    labels: {
      [CONTAINER_LABELS.role]: "verification",
      [CONTAINER_LABELS.verification]: options.id,
      [CONTAINER_LABELS.judgeRun]: options.judgeRun,
    },
    folders: options.environment ? [CHECK_FILES] : [WORKSPACE, CHECK_FILES],
    ...(options.environment ? { emptyFolders: [workdir] } : {}),
    workdir,
    // Only what the image sets (PATH, HOME, LANG…): nothing from the host, so no credentials.
    env: {},
    limits: {
      cpus: options.limits.cpus,
      memoryMiB: options.limits.memoryMiB,
      pids: options.limits.pids,
      tmpMiB: options.limits.tmpMiB,
    },
    readOnlyRoot: !options.environment,
    lifetimeMs: options.timeoutMs,
    network: { kind: "none" },
  };
}

/** The engine verification runs on; OE_ENGINE_UNREACHABLE names how to get one and then the image. */
export async function openVerificationEngine(options: EngineOptions = {}): Promise<ContainerEngine> {
  return connectImageEngine("verification", options);
}

/**
 * Image and engine errors pass through, a missing image naming the command that builds the verification image;
 * any other sandbox error is the engine failing verification.
 */
export async function withVerificationErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ContainerError) throw error.problem.role ? error : error.within({ role: "verification" });
    if (!(error instanceof SandboxError)) throw error;
    throw new VerificationError("engineFailed", { reason: error.message }, { cause: error });
  }
}

/**
 * Removes leftover verification containers (and their volumes); returns the ids removed.
 * @example
 * await reapVerificationContainers();                       // at the start of `openeval run`: orphans only
 * await reapVerificationContainers({ judgeRun: "jr_123" }); // after a judge worker was killed: all of that judge run
 */
export async function reapVerificationContainers(
  options: EngineOptions & { judgeRun?: string } = {},
): Promise<string[]> {
  const { judgeRun, ...engineOptions } = options;
  const engine = await openVerificationEngine(engineOptions);
  if (judgeRun) return engine.reap({ [CONTAINER_LABELS.judgeRun]: judgeRun });
  return engine.reap({ [CONTAINER_LABELS.role]: "verification" }, { orphansOnly: true });
}
