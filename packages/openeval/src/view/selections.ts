// The filtered, sorted lists the pages are reading, kept per source: filtering and sorting 100,000 eval runs (or a
// comparison's criteria) costs tens of ms, and paging through one list asks for the same selection again and again.
// A re-read run or a comparison made again is a new source, so its selections start afresh; each source keeps the
// few it was last asked for.
import { canonicalJson } from "../util/hash.ts";

/** Selections kept per source (the least recently asked for is dropped first). */
const KEPT = 16;

/**
 * @example
 * const evalRuns = new Selections((index: RunIndex, selection: EvalRunSelection) => selectEvalRuns(index.rows, selection));
 * pageOf(evalRuns.select(index, { sort: "score" }), 100, 100)
 */
export class Selections<Source extends object, Selection, Row> {
  private readonly bySource = new WeakMap<Source, Map<string, readonly Row[]>>();

  constructor(private readonly selectRows: (source: Source, selection: Selection) => readonly Row[]) {}

  select(source: Source, selection: Selection): readonly Row[] {
    let kept = this.bySource.get(source);
    if (!kept) this.bySource.set(source, (kept = new Map()));
    // The whole selection, keys sorted: a filter added to a query later cannot be left out of the key.
    const key = canonicalJson(selection);
    const found = kept.get(key);
    kept.delete(key);
    const rows = found ?? this.selectRows(source, selection);
    kept.set(key, rows);
    if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    return rows;
  }
}
