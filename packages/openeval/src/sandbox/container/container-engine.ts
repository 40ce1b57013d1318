// The `container` engine: Docker, or Podman's Docker-compatible API, local or remote (DOCKER_HOST /
// candidate.container.host), through dockerode. Besides sandboxes it builds and finds images, which is what the
// verification and candidate images need; nothing it returns carries a dockerode type.
import type { SandboxEngine } from "../sandbox.ts";
import { createContainerSandbox } from "./container-sandbox.ts";
import { carryImage } from "./carry-image.ts";
import { connectEngine, withTimeout, type Engine, type EngineOptions } from "./engine.ts";
import { buildImage, findImages, inspectImage, type BuildRequest, type ImageInfo } from "./images.ts";
import { createVolume, listContainers, reapContainers, removeVolume } from "./reap.ts";

export interface ContainerEngine extends SandboxEngine {
  readonly name: "container";
  readonly kind: "docker" | "podman";
  buildImage(request: BuildRequest): Promise<string>;
  findImages(labels: Record<string, string>): Promise<ImageInfo[]>;
  inspectImage(name: string): Promise<ImageInfo | null>;
  /** A named volume several sandboxes can mount (`SandboxSpec.volumes`); labelled, so reap() removes it too. */
  createVolume(labels: Record<string, string>): Promise<string>;
  removeVolume(name: string): Promise<void>;
  /** How many CPUs the engine's host has (its info's NCPU); null when the engine does not say. */
  cpus(): Promise<number | null>;
  /** Throws when the engine does not answer within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /** The engine's version and API version, as it reports them. */
  version(): Promise<{ version: string; apiVersion: string }>;
  /** Whether it holds an image of that id. */
  hasImage(id: string): Promise<boolean>;
  /** Streams the image of that id from this engine into `to` and checks its id there (carry-image.ts). */
  carryImage(id: string, to: ContainerEngine): Promise<void>;
}

/** The connection behind each engine handed out, for work between two engines (carrying an image). */
const CONNECTIONS = new WeakMap<ContainerEngine, Engine>();

/**
 * Connects (ENGINE_UNREACHABLE, with the remedy, when nothing answers).
 * @example
 * const engine = await connectContainerEngine({ host: "tcp://127.0.0.1:2375" });
 * const sandbox = await engine.create({ image, labels, folders: ["/workspace"], workdir: "/workspace", limits, lifetimeMs });
 */
export async function connectContainerEngine(options: EngineOptions = {}): Promise<ContainerEngine> {
  const engine = await connectEngine(options);
  const containerEngine: ContainerEngine = {
    name: "container",
    kind: engine.kind,
    address: engine.address,
    confines: { resources: true, network: true, filesystem: true },
    create: (spec) => createContainerSandbox(engine, spec),
    list: async (labels) => (await listContainers(engine, labels)).map((container) => container.id),
    reap: (labels, options) => reapContainers(engine, labels, options),
    buildImage: (request) => buildImage(engine, request),
    findImages: (labels) => findImages(engine, labels),
    inspectImage: (name) => inspectImage(engine, name),
    createVolume: (labels) => createVolume(engine, labels),
    removeVolume: (name) => removeVolume(engine, name),
    cpus: async () => {
      const { NCPU } = (await engine.docker.info()) as { NCPU?: unknown };
      return typeof NCPU === "number" && NCPU > 0 ? NCPU : null;
    },
    ping: async (timeoutMs) => {
      await withTimeout(engine.docker.ping(), timeoutMs, `no answer within ${timeoutMs / 1000} s`);
    },
    version: async () => {
      const { Version, ApiVersion } = await engine.docker.version();
      return { version: Version, apiVersion: ApiVersion };
    },
    hasImage: async (id) => (await inspectImage(engine, id))?.id === id,
    carryImage: (id, to) => {
      const target = CONNECTIONS.get(to);
      if (!target) throw new Error("carryImage: the target engine was not connected by connectContainerEngine");
      return carryImage(engine, target, id);
    },
  };
  CONNECTIONS.set(containerEngine, engine);
  return containerEngine;
}
