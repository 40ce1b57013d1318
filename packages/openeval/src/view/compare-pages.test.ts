import { describe, expect, it } from "vitest";
import type {
  ChangeStatus,
  ComparisonAnswer,
  CriterionChange,
  EvalChangeView,
  ModelPairView,
} from "./compare-types.ts";
import { NAMED_EVALS, pairAt, queryChanges, selectChanges, summarizeComparison } from "./compare-pages.ts";
import { CompareError } from "./errors.ts";

function criterion(
  evalId: string,
  criterionId: string,
  a: number | null,
  b: number | null,
  status: ChangeStatus,
): CriterionChange {
  return { evalId, criterionId, a, b, difference: a === null || b === null ? null : b - a, status };
}

function evaluation(evalId: string, criteria: CriterionChange[]): EvalChangeView {
  const known = criteria.every((entry) => entry.difference !== null);
  const difference = known ? criteria.reduce((sum, entry) => sum + entry.difference!, 0) / criteria.length : null;
  const slots = [{ repetition: 1, a: null, b: null }];
  return {
    evalId,
    a: null,
    b: null,
    difference,
    status:
      difference === null ? "unresolved" : difference < 0 ? "regression" : difference > 0 ? "improvement" : "unchanged",
    criteria,
    slots,
  };
}

const EVALS = [
  evaluation("e1", [criterion("e1", "tests", 1, 0, "regression"), criterion("e1", "style", 1, 1, "unchanged")]),
  evaluation("e2", [criterion("e2", "tests", 0, 1, "improvement"), criterion("e2", "style", 1, 0.5, "regression")]),
  evaluation("e3", [criterion("e3", "tests", null, 1, "unresolved"), criterion("e3", "style", 0.5, 0.5, "unchanged")]),
  evaluation("e4", [criterion("e4", "tests", 1, 0, "regression"), criterion("e4", "style", 1, 1, "unchanged")]),
];
const PAIR: ModelPairView = {
  a: "m/a",
  b: "m/b",
  scoreA: { value: 80, lower: 80, upper: 80 },
  scoreB: { value: 60, lower: 60, upper: 60 },
  paired: {
    meanDifference: -20,
    interval: { lower: -50, upper: 0 },
    reason: null,
    pairedEvals: 3,
    excluded: [{ evalId: "e3", reason: "unresolved on side a" }],
  },
  evals: EVALS,
  counts: { regression: 3, improvement: 1, unchanged: 3, unresolved: 1, missing: 0 },
};
const SIDE = { kind: "run", runId: "r", name: "run", createdAt: "2026-12-01T00:00:00.000Z", file: null } as const;
const ANSWER: ComparisonAnswer = { a: SIDE, b: SIDE, pairs: [PAIR] };
const ids = (rows: readonly CriterionChange[]) => rows.map((row) => `${row.evalId}/${row.criterionId}`);

describe("summarizeComparison", () => {
  it("keeps everything per pair, counts the evals and gathers their differences by 0.1 point, not the evals themselves", () => {
    const [pair] = summarizeComparison(ANSWER).pairs;
    const { evals: _evals, ...perPair } = PAIR;
    expect(pair).toEqual({
      ...perPair,
      evalCount: 4,
      differences: [
        { points: -50, evals: 2, evalIds: ["e1", "e4"] },
        { points: 25, evals: 1, evalIds: ["e2"] },
      ],
    });
    expect(pair).not.toHaveProperty("evals");
  });

  it("names the first NAMED_EVALS evals of a difference, however many have it", () => {
    const many = Array.from({ length: 10 }, (_, index) =>
      evaluation(`e${index}`, [criterion(`e${index}`, "tests", 1, 0, "regression")]),
    );
    const [pair] = summarizeComparison({ ...ANSWER, pairs: [{ ...PAIR, evals: many }] }).pairs;
    expect(pair!.differences).toEqual([{ points: -100, evals: 10, evalIds: ["e0", "e1", "e2"].slice(0, NAMED_EVALS) }]);
  });
});

describe("selectChanges", () => {
  it("lists a row per criterion, regressions first with the biggest drop on top, each with its eval's change and slots", () => {
    const rows = selectChanges(PAIR, {});
    expect(ids(rows)).toEqual([
      "e1/tests",
      "e4/tests",
      "e2/style",
      "e2/tests",
      "e3/tests",
      "e1/style",
      "e3/style",
      "e4/style",
    ]);
    expect(rows[0]).toMatchObject({
      evalChange: { evalId: "e1", difference: -0.5, status: "regression" },
      slots: [{ repetition: 1 }],
    });
    expect(rows[0]!.evalChange).not.toHaveProperty("criteria");
  });

  it("filters by status before sorting", () => {
    expect(ids(selectChanges(PAIR, { status: "regression", sort: "eval", descending: true }))).toEqual([
      "e4/tests",
      "e2/style",
      "e1/tests",
    ]);
    expect(selectChanges(PAIR, { status: "missing" })).toEqual([]);
  });

  it("sorts by difference and by either side's credit, unknowns last in both directions", () => {
    expect(ids(selectChanges(PAIR, { sort: "difference" })).at(-1)).toBe("e3/tests");
    expect(ids(selectChanges(PAIR, { sort: "difference", descending: true }))).toEqual([
      "e2/tests",
      "e1/style",
      "e3/style",
      "e4/style",
      "e2/style",
      "e1/tests",
      "e4/tests",
      "e3/tests",
    ]);
    expect(ids(selectChanges(PAIR, { sort: "a" })).slice(0, 2)).toEqual(["e2/tests", "e3/style"]);
    expect(ids(selectChanges(PAIR, { sort: "a", descending: true })).at(-1)).toBe("e3/tests");
    expect(selectChanges(PAIR, { sort: "b", descending: true }).map((row) => row.b)).toEqual([
      1, 1, 1, 1, 0.5, 0.5, 0, 0,
    ]);
  });

  it("sorts by eval and criterion, or reversed", () => {
    expect(ids(selectChanges(PAIR, { sort: "eval" })).slice(0, 3)).toEqual(["e1/style", "e1/tests", "e2/style"]);
    expect(ids(selectChanges(PAIR, { sort: "eval", descending: true })).slice(0, 2)).toEqual(["e4/tests", "e4/style"]);
  });
});

describe("queryChanges", () => {
  it("cuts pages from the pair's selected rows, with the total of the selection", () => {
    const all = selectChanges(PAIR, { sort: "eval" });
    const pages = [0, 3, 6].map((offset) => queryChanges(ANSWER, { pair: 0, sort: "eval", offset, limit: 3 }));
    expect(pages.map((page) => [page.total, page.offset, page.items.length])).toEqual([
      [8, 0, 3],
      [8, 3, 3],
      [8, 6, 2],
    ]);
    expect(pages.flatMap((page) => page.items)).toEqual(all);
    expect(queryChanges(ANSWER, { pair: 0, status: "improvement", offset: 0, limit: 10 })).toMatchObject({
      total: 1,
      items: [{ evalId: "e2", criterionId: "tests" }],
    });
    expect(queryChanges(ANSWER, { pair: 0, offset: 20, limit: 10 })).toEqual({ total: 8, offset: 20, items: [] });
  });

  it("names the pairs there are for a pair the comparison does not have", () => {
    expect(pairAt(ANSWER, 0)).toBe(PAIR);
    expect(() => queryChanges(ANSWER, { pair: 1, offset: 0, limit: 10 })).toThrow(CompareError);
    expect(() => queryChanges(ANSWER, { pair: 1, offset: 0, limit: 10 })).toThrow(
      "pair: this comparison has 1 model pair(s), at positions 0 to 0; got 1",
    );
  });
});
