// Where this run's candidates execute (SPEC §6): each model's isolation backend, and — when any model runs in
// containers — the engine and the pinned candidate image, resolved before any model is called. No engine or no
// image stops a run that needs one (exit 2) with the remedy; `--isolation process` is the way around it.
import { resolveCandidateImage } from "../candidate/index.ts";
import { resolveIsolation, type BenchmarkDefinition, type Isolation } from "../load/index.ts";
import { plannedModels, type CandidateRuntime, type PlanScope } from "../plan/index.ts";
import type { RunModels } from "../records/index.ts";
import { ContainerError, openSandboxEngine } from "../sandbox/index.ts";

export interface RunIsolation {
  runtimeFor(model: string): CandidateRuntime;
  /** The engine address candidates run on when some model uses containers. */
  engineHost: string | undefined;
  /** The pinned candidate image (and engine) containerized candidates run with; null when none does. */
  container: { image: string; host?: string } | null;
}

export async function resolveRunIsolation(benchmark: BenchmarkDefinition, models: readonly string[], override: Isolation | undefined, options: { strict: boolean }): Promise<RunIsolation> {
  const isolation = new Map(models.map((model) => [model, resolveIsolation(model, benchmark.settings, override)]));
  const containerized = models.filter((model) => isolation.get(model) === "container");
  const engineHost = benchmark.settings.candidate.container?.host;
  let image: string | null = null;
  if (containerized.length > 0) {
    try {
      image = await candidateImageOn(engineHost);
    } catch (error) {
      // `openeval plan` calls no model: without an image it plans candidate work and says nothing is reusable.
      if (options.strict) throw error instanceof ContainerError ? error.within({ candidates: containerized }) : error;
    }
  }
  return { container: image ? { image, ...(engineHost ? { host: engineHost } : {}) } : null, runtimeFor: (model) => ({ isolation: isolation.get(model) ?? resolveIsolation(model, benchmark.settings, override), image: isolation.get(model) === "container" ? image : null }), engineHost };
}

/** The pinned candidate image's id on the engine at `host` (without one: DOCKER_HOST, else the local socket). */
export async function candidateImageOn(host: string | undefined): Promise<string> {
  return (await resolveCandidateImage(host ? { host } : {})).imageId;
}

/** The models this invocation may run candidates for (plannedModels, narrowed by `--only-model`). */
export function modelsInScope(benchmark: BenchmarkDefinition, scope: PlanScope, runModels?: RunModels): string[] {
  const models = plannedModels(benchmark, scope, runModels);
  return scope.onlyModels ? models.filter((model) => scope.onlyModels!.includes(model)) : models;
}

/**
 * Candidate containers, egress proxies and their volumes whose runner died (owner gone) are removed before new work,
 * whichever run they belonged to; a live run's are left alone. Never fatal: they also stop by themselves.
 */
export async function reapOrphanedCandidates(isolation: RunIsolation, models: readonly string[]): Promise<void> {
  if (!models.some((model) => isolation.runtimeFor(model).isolation === "container")) return;
  try {
    const engine = await openSandboxEngine("container", { container: isolation.engineHost ? { host: isolation.engineHost } : {} });
    for (const role of ["candidate", "egress-proxy", "egress"]) await engine.reap({ "openeval.sandbox": role }, { orphansOnly: true });
  } catch {
    // No engine now: nothing of ours can be running there either.
  }
}
