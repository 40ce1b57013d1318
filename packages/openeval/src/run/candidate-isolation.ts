// Where this run's candidates execute: each model's isolation backend (load/isolation.ts picks the name), and what
// each backend the run uses pins before any model is called (the container backend: the engine and the candidate
// image). No engine or no image stops a run that needs one (exit 2) with the remedy; `--isolation process` is the
// way around it.
import { candidateRuntime, type PinnedRuntime } from "../candidate/index.ts";
import { resolveIsolation, type BenchmarkDefinition, type Isolation } from "../load/index.ts";
import { plannedModels, type CandidateRuntime, type PlanScope } from "../plan/index.ts";
import type { RunModels } from "../records/index.ts";
import { ContainerError } from "../sandbox/index.ts";

export interface RunIsolation {
  runtimeFor(model: string): CandidateRuntime;
  /** What the model's backend pinned for this run (the candidate image and its engine); nothing for an unpinned backend. */
  pinnedFor(model: string): PinnedRuntime;
  /** The backends this run's models use. */
  backends: Isolation[];
  /** The candidate image the run's backends pinned (only the container backend pins one), recorded with the run. */
  candidateImage: string | undefined;
}

export async function resolveRunIsolation(
  benchmark: BenchmarkDefinition,
  models: readonly string[],
  override: Isolation | undefined,
  options: { strict: boolean },
): Promise<RunIsolation> {
  const isolationOf = (model: string) => resolveIsolation(model, benchmark.settings, override);
  const backends = [...new Set(models.map(isolationOf))];
  const pinned = new Map<Isolation, PinnedRuntime>();
  for (const backend of backends) {
    try {
      pinned.set(backend, await candidateRuntime(backend).pin(benchmark.settings.candidate));
    } catch (error) {
      // `openeval plan` calls no model: without an image it plans candidate work and says nothing is reusable.
      if (options.strict)
        throw error instanceof ContainerError
          ? error.within({ candidates: models.filter((model) => isolationOf(model) === backend) })
          : error;
    }
  }
  const pinnedFor = (model: string) => pinned.get(isolationOf(model)) ?? { image: null };
  const candidateImage = [...pinned.values()].find((runtime) => runtime.image !== null)?.image ?? undefined;
  return {
    runtimeFor: (model) => ({ isolation: isolationOf(model), image: pinnedFor(model).image }),
    pinnedFor,
    backends,
    candidateImage,
  };
}

/** The models this invocation may run candidates for (plannedModels, narrowed by `--only-model`). */
export function modelsInScope(benchmark: BenchmarkDefinition, scope: PlanScope, runModels?: RunModels): string[] {
  const models = plannedModels(benchmark, scope, runModels);
  return scope.onlyModels ? models.filter((model) => scope.onlyModels!.includes(model)) : models;
}

/** What runners that died left (their owner gone) is removed before new work, whichever run it belonged to. Never fatal. */
export async function reapOrphanedCandidates(benchmark: BenchmarkDefinition, isolation: RunIsolation): Promise<void> {
  for (const backend of isolation.backends) await candidateRuntime(backend).reapOrphans(benchmark.settings.candidate);
}
