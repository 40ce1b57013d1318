// The name → implementation map of sandbox engines (STYLE §8): `process` runs on this machine, `container` on a
// local or remote container engine. A Kubernetes engine would be one more entry (docs/design/kubernetes.md).
import { connectContainerEngine } from "./container/container-engine.ts";
import type { EngineOptions } from "./container/engine.ts";
import { SandboxError } from "./errors.ts";
import { createProcessEngine, type ProcessEngineOptions } from "./process/process-sandbox.ts";
import type { SandboxEngine, SandboxEngineName } from "./sandbox.ts";

export interface SandboxEngineOptions {
  container?: EngineOptions;
  process?: ProcessEngineOptions;
}

const ENGINES: Record<SandboxEngineName, (options: SandboxEngineOptions) => Promise<SandboxEngine>> = {
  process: async (options) => createProcessEngine(options.process),
  container: (options) => connectContainerEngine(options.container),
};

export const SANDBOX_ENGINE_NAMES = Object.keys(ENGINES) as SandboxEngineName[];

/**
 * @example
 * const engine = await openSandboxEngine("container", { container: { host: process.env.DOCKER_HOST } });
 */
export async function openSandboxEngine(name: string, options: SandboxEngineOptions = {}): Promise<SandboxEngine> {
  const open = ENGINES[name as SandboxEngineName];
  if (!open) throw new SandboxError("OE_UNKNOWN_ENGINE", `Unknown sandbox engine "${name}"; use one of: ${SANDBOX_ENGINE_NAMES.join(", ")}`);
  return open(options);
}
