import { Database } from "bun:sqlite";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { invariantEvaluation } from "./fixtures/invariant-evaluation.ts";
import {
  INVARIANT_EVALUATED_EVENT,
  latestInvariantEvaluations,
  readInvariantEvaluations,
  recordInvariantEvaluation,
} from "./invariant-results.ts";
import { ResultsStore, STORE_FILE } from "./store.ts";

describe("invariant evaluations in the store", () => {
  it("are appended, read back in order (the latest per invariant wins) with an event each, and never changed or deleted", async () => {
    const directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    try {
      expect(readInvariantEvaluations(store)).toEqual({ evaluations: [], problems: [], tampered: new Set() });
      recordInvariantEvaluation(store, invariantEvaluation());
      recordInvariantEvaluation(store, invariantEvaluation({ id: "iv_2", status: "holds", exitCode: 0 }));
      const { evaluations, problems } = readInvariantEvaluations(store);
      expect(problems).toEqual([]);
      expect(evaluations.map((evaluation) => evaluation.id)).toEqual(["iv_1", "iv_2"]);
      expect(latestInvariantEvaluations(evaluations).get("no-todo")?.status).toBe("holds");
      expect(store.eventsOf([INVARIANT_EVALUATED_EVENT]).map((event) => event.value)).toEqual([
        { id: "iv_1", invariant: "no-todo", status: "violated" },
        { id: "iv_2", invariant: "no-todo", status: "holds" },
      ]);
    } finally {
      store.close();
    }
    const raw = new Database(join(directory, STORE_FILE));
    try {
      expect(() => raw.run("UPDATE invariant_evaluations SET value = '{}'")).toThrow(/never changed/);
      expect(() => raw.run("DELETE FROM invariant_evaluations")).toThrow(/never deleted/);
    } finally {
      raw.close();
    }
  });

  it("report a row edited past its triggers, and the triggers gone; the edited invariant counts as tampered", async () => {
    const directory = await makeTempDir();
    const store = ResultsStore.open(directory, { create: true });
    recordInvariantEvaluation(store, invariantEvaluation());
    store.close();
    const raw = new Database(join(directory, STORE_FILE));
    raw.run("DROP TRIGGER invariant_evaluations_never_changed");
    raw.run("UPDATE invariant_evaluations SET value = replace(value, '\"violated\"', '\"holds\"')");
    raw.close();
    const reopened = ResultsStore.open(directory, { readonly: true });
    try {
      const read = readInvariantEvaluations(reopened);
      expect(read.evaluations).toEqual([]);
      expect(read.tampered).toEqual(new Set(["no-todo"]));
      expect(read.problems.map((problem) => problem.message)).toEqual([
        "the triggers that keep invariant evaluations from being changed or deleted were dropped: the recorded invariant results cannot be trusted",
        "invariant evaluation iv_1 (no-todo) was changed after it was recorded (its sha256 differs)",
      ]);
    } finally {
      reopened.close();
    }
  });
});
