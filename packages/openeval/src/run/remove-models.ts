// removeModels(): retire models from a recorded run's scores, as `openeval remove-models` (OpenEval's). The
// retirement is an appended event: every eval run, judge run and file stays, the leaderboard, verdict, report and
// viewer leave the models out, and `add-models` brings them back with their recorded work.
import { resolve } from "node:path";
import { readRunModels, recordModelsRetired, ResultsStore, slotId } from "../records/index.ts";
import { RunMaintenanceError } from "../results/index.ts";
import { whileHoldingRun } from "./recover.ts";

export interface RemovedModels {
  directory: string;
  removed: string[];
  /** Recorded slots of those models now out of the scores (their evidence is kept). */
  retiredSlots: number;
  /** The run's models after the removal. */
  models: string[];
}

/**
 * @example
 * const { retiredSlots } = await removeModels("./results/2026-12-01T10-00-00.000Z-1a2b3c4d", ["openai/gpt-5"]);
 */
export async function removeModels(runDirectory: string, models: readonly string[]): Promise<RemovedModels> {
  const removed = [...new Set(models)];
  if (removed.length === 0) throw new RunMaintenanceError("noModelsToRemove");
  const directory = resolve(runDirectory);
  const store = ResultsStore.open(directory);
  try {
    return whileHoldingRun(store, () => {
      const { active, retired } = readRunModels(store);
      const absent = removed
        .filter((model) => !active.includes(model))
        .map((model) => ({ model, retired: retired.includes(model) }));
      if (absent.length > 0) throw new RunMaintenanceError("modelsNotRemovable", { absent, active });
      const remaining = active.filter((model) => !removed.includes(model));
      if (remaining.length === 0) throw new RunMaintenanceError("lastModel", { active });
      recordModelsRetired(store, removed);
      const slots = new Set(
        store
          .evalRuns()
          .filter((evalRun) => removed.includes(evalRun.slot.model))
          .map((evalRun) => slotId(evalRun.slot)),
      );
      return { directory, removed, retiredSlots: slots.size, models: remaining };
    });
  } finally {
    store.close();
  }
}
