// The compare page's answers cut from a whole comparison: a summary of each model pair, and pages of one
// pair's changes, filtered and sorted. Pure (no Node modules): the server cuts them from the comparison it keeps, and
// a static export runs the very same code in the browser over the comparison it ships.
import type { Page } from "./api-types.ts";
import { CHANGE_ORDER } from "./compare-table.ts";
import type {
  ChangeQuery,
  ChangeRow,
  ChangeSelection,
  ChangeSort,
  ComparisonAnswer,
  ComparisonSummary,
  ModelPairSummary,
  ModelPairView,
} from "./compare-types.ts";
import { CompareError } from "./errors.ts";
import { compareKnown, compareText, pageOf } from "./query.ts";

/**
 * What the compare page's header needs: both sides, and per pair everything but its evals' changes.
 * @example summarizeComparison(answer).pairs[0].counts.regression // 1
 */
export function summarizeComparison(answer: ComparisonAnswer): ComparisonSummary {
  return { a: answer.a, b: answer.b, pairs: answer.pairs.map(summarizePair) };
}

/** How many evals of each difference the summary names (the plot labels a difference by them). */
export const NAMED_EVALS = 3;

function summarizePair({ evals, ...pair }: ModelPairView): ModelPairSummary {
  const counted = new Map<number, { evals: number; evalIds: string[] }>();
  for (const { evalId, difference } of evals) {
    if (difference === null) continue;
    // To 0.1 point: finer than the plot draws, and at most 2,001 entries however many evals there are.
    const points = Math.round(1000 * difference) / 10;
    const entry = counted.get(points) ?? { evals: 0, evalIds: [] };
    entry.evals += 1;
    if (entry.evalIds.length < NAMED_EVALS) entry.evalIds.push(evalId);
    counted.set(points, entry);
  }
  const differences = [...counted].sort(([x], [y]) => x - y).map(([points, entry]) => ({ points, ...entry }));
  return { ...pair, evalCount: evals.length, differences };
}

/** The comparison's pair at `index`; a CompareError names the positions there are. */
export function pairAt(answer: ComparisonAnswer, index: number): ModelPairView {
  const pair = answer.pairs[index];
  if (!pair) throw new CompareError("pairOutOfRange", { pairs: answer.pairs.length, index });
  return pair;
}

/**
 * A page of one pair's changes, filtered and sorted.
 * @example queryChanges(answer, { pair: 0, offset: 0, limit: 100, status: "regression", sort: "difference" })
 */
export function queryChanges(answer: ComparisonAnswer, query: ChangeQuery): Page<ChangeRow> {
  const { pair, offset, limit, ...selection } = query;
  return pageOf(selectChanges(pairAt(answer, pair), selection), offset, limit);
}

/** One pair's changes (a row per criterion) that the selection keeps, in its order: every page of it is a slice. */
export function selectChanges(pair: ModelPairView, selection: ChangeSelection): readonly ChangeRow[] {
  const rows = pair.evals.flatMap(({ criteria, slots, ...evalChange }) =>
    criteria.map((criterion) => ({ ...criterion, evalChange, slots })),
  );
  const matching = selection.status ? rows.filter((row) => row.status === selection.status) : rows;
  const descending = selection.descending === true;
  // Unknown values sort last whichever the direction.
  const known = (a: number | null, b: number | null) => compareKnown(a, b, descending);
  const bySlot = (a: ChangeRow, b: ChangeRow) =>
    compareText(a.evalId, b.evalId) || compareText(a.criterionId, b.criterionId);
  const compare: Record<ChangeSort, (a: ChangeRow, b: ChangeRow) => number> = {
    status: (a, b) =>
      CHANGE_ORDER[a.status] - CHANGE_ORDER[b.status] || known(a.difference, b.difference) || bySlot(a, b),
    difference: (a, b) => known(a.difference, b.difference) || bySlot(a, b),
    a: (a, b) => known(a.a, b.a) || bySlot(a, b),
    b: (a, b) => known(a.b, b.b) || bySlot(a, b),
    eval: bySlot,
  };
  const sort = selection.sort ?? "status";
  const sorted = matching.sort(compare[sort]);
  // Numeric sorts apply the direction themselves (unknowns stay last); the others are reversed whole.
  return (sort === "eval" || sort === "status") && descending ? sorted.reverse() : sorted;
}
