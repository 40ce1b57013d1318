// Where this run's candidates execute: each model's isolation backend (load/isolation.ts picks the name; an eval with
// its own environment always runs in a container), and what each backend the run uses pins before any model is
// called (the container backend: the engine and the candidate image; each environment: its image). No engine or no
// image stops a run that needs one (exit 2) with the remedy; `--isolation process` is the way around it, except for
// evals with environments, which it cannot run.
import { join } from "node:path";
import { candidateRuntime, type PinnedRuntime } from "../candidate/index.ts";
import {
  resolveEvalIsolation,
  resolveIsolation,
  type BenchmarkDefinition,
  type EvalDefinition,
  type Isolation,
} from "../load/index.ts";
import { plannedModels, type CandidateRuntime, type PlanScope } from "../plan/index.ts";
import type { RunModels } from "../records/index.ts";
import { ContainerError, type EngineOptions, type PoolMember } from "../sandbox/index.ts";
import { homeEngine } from "./engine-pool.ts";
import {
  buildRunEnvironments,
  ENVIRONMENT_BUILDS_DIRECTORY,
  findRunEnvironments,
  type RunEnvironments,
} from "./environments.ts";
import { EnvironmentIsolationError } from "./errors.ts";

export interface RunIsolation {
  runtimeFor(model: string, evaluation: EvalDefinition): CandidateRuntime;
  /** What the eval run's backend pinned for this run (the candidate or environment image and its engine). */
  pinnedFor(model: string, evaluation: EvalDefinition): PinnedRuntime;
  /** The candidate image the model's backend pinned (what an eval without environment/ runs with). */
  candidatePinned(model: string): PinnedRuntime;
  /** Why the eval's candidates cannot start (its environment did not build); null when they can. */
  problemFor(evaluation: EvalDefinition): string | null;
  /** The backends this run's models use. */
  backends: Isolation[];
  /** The candidate image the run's backends pinned (only the container backend pins one), recorded with the run. */
  candidateImage: string | undefined;
  environments: RunEnvironments;
}

/**
 * `scope`'s evals are those this invocation may run: only theirs are refused `--isolation process` and need the engine
 * (every eval's environment is looked for, so that recorded work out of scope keeps its fingerprints).
 */
export async function resolveRunIsolation(
  benchmark: BenchmarkDefinition,
  models: readonly string[],
  scope: Pick<PlanScope, "isolation" | "onlyEvals">,
  options: { strict: boolean },
): Promise<RunIsolation> {
  const override = scope.isolation;
  const isolationOf = (model: string) => resolveIsolation(model, benchmark.settings, override);
  const confined = evalsInScope(benchmark, scope)
    .filter((evaluation) => evaluation.environment)
    .map((evaluation) => evaluation.id);
  const asked = override ?? benchmark.settings.candidate.isolation;
  if (asked === "process" && confined.length > 0)
    throw new EnvironmentIsolationError(confined, override ? "--isolation process" : 'candidate.isolation: "process"');
  const backends = [...new Set(models.map(isolationOf))];
  const home = homeEngine(benchmark.settings);
  const pinned = new Map<Isolation, PinnedRuntime>();
  for (const backend of backends) {
    try {
      pinned.set(backend, await candidateRuntime(backend).pin(home));
    } catch (error) {
      // `openeval plan` calls no model: without an image it plans candidate work and says nothing is reusable.
      if (options.strict)
        throw error instanceof ContainerError
          ? error.within({ candidates: models.filter((model) => isolationOf(model) === backend) })
          : error;
    }
  }
  const environments = await findRunEnvironments(benchmark.evals, home).catch((error: unknown) => {
    if (options.strict && confined.length > 0) throw error;
    return findRunEnvironments([]);
  });
  const candidateImage = [...pinned.values()].find((runtime) => runtime.image !== null)?.image ?? undefined;
  return withEnvironments(
    { backends, candidateImage, pinnedOf: (model) => pinned.get(isolationOf(model)) ?? { image: null } },
    environments,
    (model, evaluation) => resolveEvalIsolation(model, evaluation, benchmark.settings, override),
    home,
  );
}

/** The same isolation once the run's environments are built (run/environments.ts). */
function rebuiltIsolation(isolation: RunIsolation, environments: RunEnvironments, home: EngineOptions): RunIsolation {
  return withEnvironments(
    {
      backends: isolation.backends,
      candidateImage: isolation.candidateImage,
      pinnedOf: isolation.candidatePinned,
    },
    environments,
    (model, evaluation) => isolation.runtimeFor(model, evaluation).isolation,
    home,
  );
}

function withEnvironments(
  base: { backends: Isolation[]; candidateImage: string | undefined; pinnedOf: (model: string) => PinnedRuntime },
  environments: RunEnvironments,
  isolationOf: (model: string, evaluation: EvalDefinition) => Isolation,
  home: EngineOptions,
): RunIsolation {
  const pinnedFor = (model: string, evaluation: EvalDefinition): PinnedRuntime => {
    if (!evaluation.environment) return base.pinnedOf(model);
    const pinned = environments.pinnedFor(evaluation.id);
    return pinned ? { ...pinned, engine: home } : { image: null };
  };
  return {
    runtimeFor: (model, evaluation) => ({
      isolation: isolationOf(model, evaluation),
      image: pinnedFor(model, evaluation).image,
    }),
    pinnedFor,
    candidatePinned: base.pinnedOf,
    problemFor: (evaluation) => environments.problemFor(evaluation.id),
    backends: base.backends,
    candidateImage: base.candidateImage,
    environments,
  };
}

/** The evals this invocation may run candidates for (`--only-eval`). */
function evalsInScope(benchmark: BenchmarkDefinition, scope: Pick<PlanScope, "onlyEvals">): EvalDefinition[] {
  return benchmark.evals.filter((evaluation) => !scope.onlyEvals || scope.onlyEvals.includes(evaluation.id));
}

/** The models this invocation may run candidates for (plannedModels, narrowed by `--only-model`). */
export function modelsInScope(benchmark: BenchmarkDefinition, scope: PlanScope, runModels?: RunModels): string[] {
  const models = plannedModels(benchmark, scope, runModels);
  return scope.onlyModels ? models.filter((model) => scope.onlyModels!.includes(model)) : models;
}

/** What runners that died left (their owner gone) is removed before new work, whichever run it belonged to. Never fatal. */
export async function reapOrphanedCandidates(isolation: RunIsolation, engines: readonly PoolMember[]): Promise<void> {
  if (!usesContainers(isolation)) return;
  for (const member of engines) await candidateRuntime("container").reapOrphans(member.options);
}

/** Whether some candidate of the run may run in a container (its model's backend, or an eval's environment). */
export function usesContainers(isolation: RunIsolation): boolean {
  return (
    isolation.backends.includes("container") ||
    isolation.environments.unbuilt.length + Object.keys(isolation.environments.images).length > 0
  );
}

/** Builds what the run's evals in scope need and is not built; each build's log goes to the run's environment-builds/. */
export async function withBuiltEnvironments(
  benchmark: BenchmarkDefinition,
  scope: PlanScope,
  isolation: RunIsolation,
  runDirectory: string,
  emit: (event: { type: "notice"; message: string }) => void,
): Promise<RunIsolation> {
  const home = homeEngine(benchmark.settings);
  const built = await buildRunEnvironments(benchmark.evals, isolation.environments, {
    engine: home,
    only: new Set(evalsInScope(benchmark, scope).map((evaluation) => evaluation.id)),
    logDirectory: join(runDirectory, ENVIRONMENT_BUILDS_DIRECTORY),
    onProgress: (evalId, event) => {
      if (event.kind === "phase" && event.message.startsWith("Building "))
        emit({ type: "notice", message: `Environment of eval "${evalId}": ${event.message}` });
    },
  });
  return rebuiltIsolation(isolation, built, home);
}
