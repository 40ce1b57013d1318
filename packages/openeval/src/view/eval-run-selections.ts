// The eval-run lists the pages are reading, kept per run index: filtering and sorting 100,000 rows costs tens of
// ms, and paging through one list asks for the same selection again and again. A re-read run is a new index, so
// its selections start afresh; each index keeps the few it was last asked for.
import { canonicalJson } from "../util/hash.ts";
import type { EvalRunRow } from "./api-types.ts";
import { selectEvalRuns, type EvalRunSelection } from "./query.ts";
import type { RunIndex } from "./run-index.ts";

/** Selections kept per index (the least recently asked for is dropped first). */
const KEPT = 16;

export class EvalRunSelections {
  private readonly byIndex = new WeakMap<RunIndex, Map<string, readonly EvalRunRow[]>>();

  select(index: RunIndex, selection: EvalRunSelection): readonly EvalRunRow[] {
    let kept = this.byIndex.get(index);
    if (!kept) this.byIndex.set(index, (kept = new Map()));
    // The whole selection, keys sorted: a filter added to EvalRunQuery later cannot be left out of the key.
    const key = canonicalJson(selection);
    const found = kept.get(key);
    kept.delete(key);
    const rows = found ?? selectEvalRuns(index.rows, selection);
    kept.set(key, rows);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    return rows;
  }
}
