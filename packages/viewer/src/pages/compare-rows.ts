// The compare page's rows: every criterion of one model pair with its eval's change, filtered and sorted by the
// URL (regressions first by default, the biggest drop on top).
import { CHANGE_ORDER, type ChangeSort, type ChangeStatus, type CriterionChange, type EvalChangeView, type ModelPairView, type SlotPair } from "openeval/viewer-api";

export interface CompareRow extends CriterionChange {
  evalChange: Omit<EvalChangeView, "criteria" | "slots">;
  slots: SlotPair[];
}

export function compareRows(pair: ModelPairView, options: { sort?: ChangeSort; descending: boolean; status?: ChangeStatus }): CompareRow[] {
  const rows = pair.evals.flatMap(({ criteria, slots, ...evalChange }) => criteria.map((criterion) => ({ ...criterion, evalChange, slots })));
  const matching = options.status ? rows.filter((row) => row.status === options.status) : rows;
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  // Unknown values sort last whichever the direction.
  const known = (a: number | null, b: number | null) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : options.descending ? b - a : a - b);
  const bySlot = (a: CompareRow, b: CompareRow) => text(a.evalId, b.evalId) || text(a.criterionId, b.criterionId);
  const compare: Record<ChangeSort, (a: CompareRow, b: CompareRow) => number> = {
    status: (a, b) => CHANGE_ORDER[a.status] - CHANGE_ORDER[b.status] || known(a.difference, b.difference) || bySlot(a, b),
    difference: (a, b) => known(a.difference, b.difference) || bySlot(a, b),
    a: (a, b) => known(a.a, b.a) || bySlot(a, b),
    b: (a, b) => known(a.b, b.b) || bySlot(a, b),
    eval: bySlot,
  };
  const sort = options.sort ?? "status";
  const sorted = [...matching].sort(compare[sort]);
  return (sort === "eval" || sort === "status") && options.descending ? sorted.reverse() : sorted;
}
