// The run's container engines as a pool (load/engine-pool.ts says which): images are built on the first engine
// (home) and carried to each other engine before its first sandbox; every engine is reaped of what dead runners left
// before work, and of this run's sandboxes after it.
import { configuredEngines, type BenchmarkSettings, type EngineMemberSettings } from "../load/index.ts";
import {
  openEnginePool,
  openSandboxEngine,
  type ContainerEngine,
  type EngineOptions,
  type EnginePool,
  type EngineState,
  type PoolMember,
} from "../sandbox/index.ts";

export function runEngineMembers(
  settings: BenchmarkSettings,
  env: Record<string, string | undefined> = process.env,
): PoolMember[] {
  return configuredEngines(settings.candidate, env).map(memberOf);
}

/** Where this benchmark's images are built and found: the pool's first engine. */
export function homeEngine(settings: BenchmarkSettings): EngineOptions {
  return runEngineMembers(settings)[0]!.options;
}

function memberOf(settings: EngineMemberSettings): PoolMember {
  const { name, capacity, host, tls, insecure } = settings;
  return {
    name,
    capacity,
    options: { ...(host ? { host } : {}), ...(tls ? { tls } : {}), ...(insecure ? { insecure } : {}) },
  };
}

/** The warning every run prints for each engine reached by plain TCP on another machine, declared insecure. */
export function insecureEngineWarnings(members: readonly PoolMember[]): string[] {
  return members
    .filter((member) => member.options.insecure)
    .map(
      (member) =>
        `Engine "${member.name}" at ${member.options.host} is reached by plain TCP (insecure: true): anyone who can reach that address is root on its host. Give it TLS (tls: { certPath }).`,
    );
}

/**
 * Opens the run's pool: before an engine's first sandbox, `images()` (the candidate, verification and environment
 * image ids this run uses) are made present on it, carried from the home engine when missing.
 */
export function openRunEngines(
  members: readonly PoolMember[],
  options: {
    images: () => readonly string[];
    onChange?: (states: EngineState[]) => void;
    onCarry?: (message: string) => void;
  },
): EnginePool {
  const pool: EnginePool = openEnginePool(members, {
    prepare: async (member, engine) => {
      if (member.name === pool.home.name) return;
      await carryMissing(await pool.engine(pool.home.name), engine, options.images(), (id) =>
        options.onCarry?.(`Carrying image ${id.slice(7, 19)} to engine "${member.name}"`),
      );
    },
    ...(options.onChange ? { onChange: options.onChange } : {}),
  });
  return pool;
}

async function carryMissing(
  home: ContainerEngine,
  engine: ContainerEngine,
  images: readonly string[],
  onCarry: (id: string) => void,
): Promise<void> {
  for (const id of new Set(images)) {
    if (await engine.hasImage(id)) continue;
    onCarry(id);
    await home.carryImage(id, engine);
  }
}

/** Per engine, the images of `images` it does not hold yet (what a run would carry there); engines that do not answer say so. */
export async function imagesToCarry(
  members: readonly PoolMember[],
  images: readonly string[],
): Promise<{ engine: string; images: string[]; problem?: string }[]> {
  if (members.length < 2 || images.length === 0) return [];
  const wanted = [...new Set(images)];
  const plan: { engine: string; images: string[]; problem?: string }[] = [];
  for (const member of members.slice(1)) {
    try {
      const engine = await openSandboxEngine("container", { container: member.options });
      const missing: string[] = [];
      for (const id of wanted) if (!(await engine.hasImage(id))) missing.push(id);
      plan.push({ engine: member.name, images: missing });
    } catch (error) {
      plan.push({ engine: member.name, images: wanted, problem: (error as Error).message });
    }
  }
  return plan;
}

/** The image ids this run's sandboxes use: the candidate image, the verification image and each built environment's. */
export function runImages(images: {
  candidateImage?: string | undefined;
  verificationImage?: string | null | undefined;
  environmentImages: Record<string, string>;
}): string[] {
  return [
    ...(images.candidateImage ? [images.candidateImage] : []),
    ...(images.verificationImage ? [images.verificationImage] : []),
    ...Object.values(images.environmentImages),
  ];
}

/** After the run's work: every sandbox of this run still on an engine of the pool (a lost engine's, once it answers) is removed. */
export async function reapRunSandboxes(pool: EnginePool, runId: string): Promise<void> {
  for (const member of pool.members) {
    try {
      await (await pool.engine(member.name)).reap({ "openeval.run": runId });
    } catch {
      // An engine that does not answer now is reaped of this run's orphans by the next run's start.
    }
  }
}
