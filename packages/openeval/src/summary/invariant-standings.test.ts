import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { InvariantsSchema, invariantDefinition } from "../load/index.ts";
import { recordInvariantEvaluation, ResultsStore } from "../records/index.ts";
import { invariantEvaluation } from "../records/fixtures/invariant-evaluation.ts";
import { readInvariantStandings } from "./invariant-standings.ts";

describe("readInvariantStandings", () => {
  const manifest = InvariantsSchema.parse([
    { id: "no-todo", argv: ["sh", "checks/no-todo.sh"], over: "workspaces", description: "no TODO left behind" },
    { id: "cost-cap", argv: ["sh", "checks/cost.sh"], over: "summary" },
    { id: "fresh", argv: ["true"], over: "summary" },
  ]);

  it("gives each declared invariant its latest evaluation of its current declaration, else not evaluated", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    try {
      recordInvariantEvaluation(
        store,
        invariantEvaluation({ id: "iv_1", definition: invariantDefinition(manifest[0]!), stderr: "TODO\n" }),
      );
      // Recorded for an older declaration of cost-cap: it does not stand for today's.
      recordInvariantEvaluation(
        store,
        invariantEvaluation({ id: "iv_2", invariant: "cost-cap", status: "holds", exitCode: 0, definition: "old" }),
      );
      const { reports, verdict, problems } = readInvariantStandings(store, manifest);
      expect(problems).toEqual([]);
      expect(reports.map(({ id, status, exitCode, description }) => [id, status, exitCode, description])).toEqual([
        ["no-todo", "violated", 1, "no TODO left behind"],
        ["cost-cap", "not-evaluated", null, null],
        ["fresh", "not-evaluated", null, null],
      ]);
      expect(reports[0]).toMatchObject({ stderr: "TODO\n", evaluation: { id: "iv_1" } });
      expect(reports[1]!.reason).toBe(
        "its declaration changed since it was last evaluated; the next `openeval run` evaluates it",
      );
      expect(verdict.standings.map((standing) => standing.status)).toEqual([
        "violated",
        "not-evaluated",
        "not-evaluated",
      ]);
    } finally {
      store.close();
    }
  });

  it("says why a recorded manifest cannot be loaded, and gives nothing when none is declared", async () => {
    const store = ResultsStore.open(await makeTempDir(), { create: true });
    try {
      const broken = readInvariantStandings(store, [{ id: "a", argv: [], over: "summary" }]);
      expect(broken.verdict.manifestProblem).toBe(
        '[0].argv: give the command and its arguments as a list, e.g. ["bun", "checks/no-secrets.ts"]',
      );
      expect(readInvariantStandings(store, undefined)).toEqual({
        reports: [],
        verdict: { standings: [], manifestProblem: null },
        problems: [],
      });
    } finally {
      store.close();
    }
  });
});
