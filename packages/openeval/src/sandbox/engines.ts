// The name → implementation map of sandbox engines, and the one way production code reaches an engine: `container`
// runs on a local or remote container engine. A Kubernetes engine or a pool of engines would be one more entry
// (docs/design/kubernetes.md); callers name the engine and get its interface.
import { connectContainerEngine, type ContainerEngine } from "./container/container-engine.ts";
import type { EngineOptions } from "./container/engine.ts";
import { SandboxError } from "./errors.ts";
import type { SandboxEngine, SandboxEngineName } from "./sandbox.ts";

export interface SandboxEngineOptions {
  container?: EngineOptions;
}

/** What each engine offers: the sandbox interface, and for `container` its images and volumes too. */
export interface SandboxEngines extends Record<SandboxEngineName, SandboxEngine> {
  container: ContainerEngine;
}

const ENGINES: { [Name in SandboxEngineName]: (options: SandboxEngineOptions) => Promise<SandboxEngines[Name]> } = {
  container: (options) => connectContainerEngine(options.container),
};

export const SANDBOX_ENGINE_NAMES = Object.keys(ENGINES) as SandboxEngineName[];

/**
 * @example
 * const engine = await openSandboxEngine("container", { container: { host: process.env.DOCKER_HOST } });
 */
export async function openSandboxEngine<Name extends SandboxEngineName>(
  name: Name,
  options: SandboxEngineOptions = {},
): Promise<SandboxEngines[Name]> {
  const open = ENGINES[name] as ((options: SandboxEngineOptions) => Promise<SandboxEngines[Name]>) | undefined;
  if (!open) throw new SandboxError("unknownEngine", { name, known: SANDBOX_ENGINE_NAMES });
  return open(options);
}
