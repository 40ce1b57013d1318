// The models a run holds: the list it was created with, then models added (`run --model`, `add-models`) and
// retired (`remove-models`), each an appended event, never a rewrite. Retiring keeps every record and file; adding
// the model back restores its scores (nothing recorded is lost).
import type { ResultsStore } from "./store.ts";

export const MODELS_ADDED_EVENT = "models.added";
export const MODELS_RETIRED_EVENT = "models.retired";

export interface RunModels {
  /** The models whose slots the run plans and scores, in the order they joined it. */
  active: string[];
  /** Models retired from the run's scores (their evidence stays on disk). */
  retired: string[];
}

/** Folds the run's creation list and its model events, in order, into the models it holds now. */
export function readRunModels(store: ResultsStore): RunModels {
  const active = new Set(store.readRun().models);
  const retired = new Set<string>();
  for (const event of store.eventsOf([MODELS_ADDED_EVENT, MODELS_RETIRED_EVENT])) {
    const { models } = event.value as { models: string[] };
    for (const model of models) {
      if (event.type === MODELS_ADDED_EVENT) {
        active.add(model);
        retired.delete(model);
      } else {
        active.delete(model);
        retired.add(model);
      }
    }
  }
  return { active: [...active], retired: [...retired] };
}

export function recordModelsAdded(store: ResultsStore, models: readonly string[]): void {
  if (models.length > 0) store.appendEvent(MODELS_ADDED_EVENT, { models });
}

export function recordModelsRetired(store: ResultsStore, models: readonly string[]): void {
  if (models.length > 0) store.appendEvent(MODELS_RETIRED_EVENT, { models });
}
