import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { readRunModels, recordModelsAdded, recordModelsRetired } from "./run-models.ts";
import { ResultsStore } from "./store.ts";

describe("readRunModels", () => {
  it("folds the creation list, additions and retirements in order: a retired model added back is active again", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    store.writeRun({
      id: "r",
      name: "b",
      benchmarkDirectory: "/b",
      createdAt: "2026-12-01T00:00:00.000Z",
      opencodeVersion: "x",
      models: ["p/a"],
      repetitions: 1,
      evals: ["e"],
    });
    recordModelsAdded(store, ["p/b", "p/c"]);
    expect(readRunModels(store)).toEqual({ active: ["p/a", "p/b", "p/c"], retired: [] });
    recordModelsRetired(store, ["p/a", "p/b"]);
    expect(readRunModels(store)).toEqual({ active: ["p/c"], retired: ["p/a", "p/b"] });
    recordModelsAdded(store, ["p/b"]);
    expect(readRunModels(store)).toEqual({ active: ["p/c", "p/b"], retired: ["p/a"] });
    expect(store.eventsOf(["models.added", "models.retired"])).toHaveLength(3);
    store.close();
  });
});
