// addModels(): extend a recorded run with more models, as `openeval add-models` (OpenEval's). It is
// runBenchmark on that run with those models added: their slots are planned and run, every recorded slot is
// reused, and a model remove-models retired comes back with its recorded work. A live run is refused by the claim.
import { resolve } from "node:path";
import { ResultsStore } from "../records/index.ts";
import { RunMaintenanceError } from "../results/index.ts";
import type { RunSummary } from "../summary/index.ts";
import { runBenchmark, type RunBenchmarkOptions } from "./run-benchmark.ts";

export type AddModelsOptions = Omit<RunBenchmarkOptions, "benchmark" | "run" | "new">;

/**
 * @example
 * const summary = await addModels("./results/2026-12-01T10-00-00.000Z-1a2b3c4d", ["openai/gpt-5"], { onEvent: console.error });
 */
export async function addModels(
  runDirectory: string,
  models: readonly string[],
  options: AddModelsOptions = {},
): Promise<RunSummary> {
  if (models.length === 0) throw new RunMaintenanceError("noModelsToAdd");
  const directory = resolve(runDirectory);
  const benchmark = recordedBenchmark(directory);
  const scope = options.scope ?? {};
  return runBenchmark({
    ...options,
    benchmark,
    run: directory,
    scope: { ...scope, models: [...new Set([...(scope.models ?? []), ...models])] },
  });
}

/** The benchmark folder the run was made from. */
function recordedBenchmark(directory: string): string {
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    return store.readRun().benchmarkDirectory;
  } finally {
    store.close();
  }
}
