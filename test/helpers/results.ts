// Reading a finished run back in journeys: the one run folder a benchmark's results/ holds, and its eval runs.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ResultsStore, type EvalRun } from "../../packages/openeval/src/records/index.ts";

/** `<benchmark>/results/<the only run>`. */
export function onlyRunDirectory(benchmarkDirectory: string): string {
  const runs = readdirSync(join(benchmarkDirectory, "results"));
  if (runs.length !== 1) throw new Error(`expected one run in ${benchmarkDirectory}/results, found ${runs.length}`);
  return join(benchmarkDirectory, "results", runs[0]!);
}

/** Every eval run of a run, in the order the store keeps them. */
export function readEvalRuns(runDirectory: string): EvalRun[] {
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    return store.evalRuns();
  } finally {
    store.close();
  }
}
