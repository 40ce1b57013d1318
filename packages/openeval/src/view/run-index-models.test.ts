import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { recordModelsAdded, recordModelsRetired, ResultsStore } from "../records/index.ts";
import { readRunIndex, toRunListItem } from "./run-index.ts";

describe("readRunIndex", () => {
  it("lists the run's models as add-models and remove-models left them", async () => {
    const directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    store.writeRun({
      id: "r",
      name: "b",
      benchmarkDirectory: "/b",
      createdAt: "2026-12-01T00:00:00.000Z",
      opencodeVersion: "x",
      models: ["p/a", "p/b"],
      repetitions: 1,
      evals: ["e"],
    });
    recordModelsRetired(store, ["p/b"]);
    recordModelsAdded(store, ["p/c"]);
    store.close();
    expect(toRunListItem(readRunIndex(directory)).models).toEqual(["p/a", "p/c"]);
  });
});
