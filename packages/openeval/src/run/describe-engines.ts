// `openeval engines`: the run's pool as it stands now — each engine's health, capacity, version, and whether it holds
// the images this benchmark's sandboxes use (found on the first engine, where they are built).
import { resolveCandidateImage } from "../candidate/index.ts";
import type { BenchmarkDefinition } from "../load/index.ts";
import { engineAddress, errorMessage, openSandboxEngine } from "../sandbox/index.ts";
import { findRunEnvironments } from "./environments.ts";
import { homeEngine, runEngineMembers } from "./engine-pool.ts";
import { resolveRunVerification } from "./verification.ts";

export interface EngineDescription {
  name: string;
  address: string;
  /** null: bounded by the run's concurrency only. */
  capacity: number | null;
  answers: boolean;
  /** Why it does not answer. */
  problem: string | null;
  version: string | null;
  apiVersion: string | null;
  insecure: boolean;
  /** Each image the benchmark uses (candidate, verification, `environment <eval>`) → whether it is there. */
  images: Record<string, boolean>;
}

/** The images this benchmark's sandboxes use, by what they are for, as found on the first engine. */
async function benchmarkImages(benchmark: BenchmarkDefinition): Promise<Record<string, string>> {
  const home = homeEngine(benchmark.settings);
  const images: Record<string, string> = {};
  const candidate = await resolveCandidateImage(home).catch(() => null);
  if (candidate) images.candidate = candidate.imageId;
  const verification = (await resolveRunVerification(benchmark)).setup?.image;
  if (verification) images.verification = verification;
  const environments = await findRunEnvironments(benchmark.evals, home).catch(() => null);
  for (const [evalId, id] of Object.entries(environments?.images ?? {})) images[`environment ${evalId}`] = id;
  return images;
}

export async function describeEngines(benchmark: BenchmarkDefinition): Promise<EngineDescription[]> {
  const members = runEngineMembers(benchmark.settings);
  const images = await benchmarkImages(benchmark);
  return Promise.all(
    members.map(async (member) => {
      const base = {
        name: member.name,
        address: engineAddress(member.options),
        capacity: member.capacity,
        insecure: member.options.insecure === true,
      };
      try {
        const engine = await openSandboxEngine("container", { container: member.options });
        const { version, apiVersion } = await engine.version();
        const present: Record<string, boolean> = {};
        for (const [what, id] of Object.entries(images)) present[what] = await engine.hasImage(id);
        return { ...base, answers: true, problem: null, version, apiVersion, images: present };
      } catch (error) {
        return { ...base, answers: false, problem: errorMessage(error), version: null, apiVersion: null, images: {} };
      }
    }),
  );
}
