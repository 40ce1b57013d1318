// planBenchmark(): what `openeval run` would do now, slot by slot, without doing it. It reads the definition
// and the run's store only: no author code runs, no model is called, no run directory is created.
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { checkScope, planSlots, type Plan, type PlanScope } from "../plan/index.ts";
import { findLatestRun, findRun, ResultsStore } from "../records/index.ts";
import { modelsInScope, resolveRunIsolation, usesContainers, type RunIsolation } from "./candidate-isolation.ts";
import { imagesToCarry, runEngineMembers, runImages } from "./engine-pool.ts";
import { resolveRunVerification } from "./verification.ts";
import {
  planAdaptively,
  readCheckedRecords,
  readPlanRecords,
  recordedInputChanges,
  recordedInputProblems,
  type InputChange,
  type InputChangeRecord,
} from "../summary/index.ts";
import { compareWithFrozen } from "./freeze-inputs.ts";
import type { IntegrityProblem, RunModels } from "../records/index.ts";
import { checkModelRefs } from "./run-benchmark.ts";

export interface PlanBenchmarkOptions {
  benchmark: string | BenchmarkDefinition;
  /** Plan against this run directory; default: the latest run, or none (everything is new). */
  run?: string;
  /** Plan as if starting a new run. */
  new?: boolean;
  scope?: PlanScope;
}

/**
 * @example
 * const plan = await planBenchmark({ benchmark: "." });
 * console.log(plan.slots.filter((slot) => slot.action === "candidate").length, plan.estimate.usd);
 */
export type RunPlan = Plan & {
  runDirectory: string | null;
  /** Changes to the benchmark, the harness or the frozen inputs seen while that run's candidates ran. */
  inputChanges: InputChangeRecord[];
  /** Records that fail their integrity check (left out of planning when they are judge runs): a plan checks the rows
   * the store did not seal (see readPlanRecords); recordings and judge-run files are checked where they are used. */
  integrity: IntegrityProblem[];
  /**
   * Eval definition and judge-only files that differ from what the run froze (with --new: the latest run), and that
   * run's directory: what the next run would grade with, although that run did not — possibly a candidate's edit.
   */
  sinceFrozen: { runDirectory: string; changes: InputChange[] } | null;
  /** Evals whose environment image is not built: `openeval run` builds it first (`openeval image` can beforehand). */
  unbuiltEnvironments: string[];
  /**
   * For a pool of several engines, the images each engine after the first lacks: `openeval run` carries them from the
   * first engine before that engine's first sandbox (an engine that does not answer says why).
   */
  carry: { engine: string; images: string[]; problem?: string }[];
};

export async function planBenchmark(options: PlanBenchmarkOptions): Promise<RunPlan> {
  const benchmark = typeof options.benchmark === "string" ? await loadBenchmark(options.benchmark) : options.benchmark;
  const scope = options.scope ?? {};
  checkModelRefs(benchmark, scope);
  const verification = await resolveRunVerification(benchmark);
  const { imageFor } = verification;
  const carryFor = (isolation: RunIsolation) =>
    usesContainers(isolation) || verification.setup?.image
      ? imagesToCarry(
          runEngineMembers(benchmark.settings),
          runImages({
            candidateImage: isolation.candidateImage,
            verificationImage: verification.setup?.image,
            environmentImages: isolation.environments.images,
          }),
        )
      : Promise.resolve([]);
  const isolationFor = (runModels?: RunModels) =>
    resolveRunIsolation(benchmark, modelsInScope(benchmark, scope, runModels), scope, { strict: false });
  const runDirectory = options.new ? null : findRun(benchmark.directory, options.run);
  const frozenBy = runDirectory ?? findLatestRun(benchmark.directory);
  const sinceFrozen =
    frozenBy === null ? null : { runDirectory: frozenBy, changes: await compareWithFrozen(benchmark, frozenBy) };
  if (runDirectory === null) {
    checkScope(benchmark, scope);
    const isolation = await isolationFor();
    return {
      ...(await planAdaptively(benchmark, { evalRuns: [], judgeRuns: [] }, scope, imageFor, isolation.runtimeFor)).plan,
      runDirectory,
      inputChanges: [],
      integrity: [],
      sinceFrozen,
      unbuiltEnvironments: isolation.environments.unbuilt,
      carry: await carryFor(isolation),
    };
  }
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    // Adaptive repetitions decide from the judgments' scores, which the records' heads leave out: read once, whole.
    const whole = benchmark.settings.adaptive ? readCheckedRecords(store) : null;
    const records = whole ?? readPlanRecords(store);
    checkScope(benchmark, scope, records.runModels);
    const integrity = [...records.integrity, ...recordedInputProblems(store)];
    const isolation = await isolationFor(records.runModels);
    return {
      ...(whole
        ? (await planAdaptively(benchmark, whole, scope, imageFor, isolation.runtimeFor)).plan
        : planSlots(benchmark, records, scope, imageFor, isolation.runtimeFor)),
      runDirectory,
      inputChanges: recordedInputChanges(store),
      integrity,
      sinceFrozen,
      unbuiltEnvironments: isolation.environments.unbuilt,
      carry: await carryFor(isolation),
    };
  } finally {
    store.close();
  }
}
