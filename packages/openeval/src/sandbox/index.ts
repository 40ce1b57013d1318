// The sandbox stage (bottom floor, imports only util/): running argv under limits, copying files in and out,
// bounded output, killing the whole tree and reaping what a dead runner left, behind one interface and one map of
// engines (today `container`: Docker/Podman, local or remote), plus the labelled images the engine builds and the
// image and engine errors. Verification and candidate isolation are its users, each with its own policy (a SandboxSpec).
export type {
  CopiedTree,
  CopyOutResult,
  OmittedFile,
  OutputSink,
  ReapOptions,
  RunOptions,
  RunOutcome,
  Sandbox,
  SandboxEngine,
  SandboxEngineName,
  SandboxLimits,
  SandboxNetwork,
  SandboxSpec,
  SandboxUser,
} from "./sandbox.ts";
export { OWNER_LABEL } from "./sandbox.ts";
export { openSandboxEngine, SANDBOX_ENGINE_NAMES, type SandboxEngineOptions, type SandboxEngines } from "./engines.ts";
export type { ContainerEngine } from "./container/container-engine.ts";
export {
  openEnginePool,
  type EngineHealth,
  type EngineLease,
  type EnginePool,
  type EnginePoolOptions,
  type EngineState,
  type PoolMember,
} from "./engine-pool.ts";
export { engineAddress, errorMessage, isEngineReachable, type EngineOptions } from "./container/engine.ts";
export type { BuildRequest, ImageInfo } from "./container/images.ts";
export {
  ContainerError,
  IMAGE_ROLES,
  type ContainerErrorCode,
  type ContainerProblem,
  type ImageRole,
} from "./container/errors.ts";
export {
  buildLabelledImage,
  connectImageEngine,
  findLabelledImage,
  findBuiltImage,
  findNamedImage,
  type ImageProgress,
  type LabelledImage,
  type LabelledImageSpec,
} from "./container/labelled-image.ts";
export {
  confineCommand,
  detectPidNamespace,
  killProcessTree,
  type ConfinedCommand,
  type KillTarget,
} from "./process-tree.ts";
export { runnerTiePrefix, tieToRunner } from "./tie-to-runner.ts";
export { BoundedBuffer, cappedSink } from "./output-capture.ts";
export { packTar, unpackTar, type ReadTarEntry, type TarEntry } from "./tar.ts";
export { SandboxError, ENGINE_FAILED, ENGINE_REMEDY } from "./errors.ts";
export { contextEntries, hashContext, readContextFiles, type ContextFile } from "./image-context.ts";
export { readTree as readFolder } from "./read-folder.ts";
