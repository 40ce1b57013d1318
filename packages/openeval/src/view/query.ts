// Paging, filtering and locating over answers already in memory. Pure (no Node modules): the server runs it over
// its index, and a static export runs the very same code in the browser over the rows it ships.
import type { EvalRunQuery, EvalRunRow, Page, TranscriptLocation, TranscriptMessage } from "./api-types.ts";

export function pageOf<T>(items: readonly T[], offset: number, limit: number): Page<T> {
  return { total: items.length, offset, items: items.slice(offset, offset + limit) };
}

export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Unknown values sort last in either direction. */
export const compareKnown = (a: number | null, b: number | null, descending: boolean) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : descending ? b - a : a - b;

/**
 * @example queryEvalRuns(rows, { offset: 0, limit: 50, model: "control/positive", sort: "score", descending: true })
 */
export function queryEvalRuns(rows: readonly EvalRunRow[], query: EvalRunQuery): Page<EvalRunRow> {
  return pageOf(selectEvalRuns(rows, query), query.offset, query.limit);
}

/** What a query's filters and sort make of the rows, before a page is cut: the same for every page of the query. */
export type EvalRunSelection = Omit<EvalRunQuery, "offset" | "limit">;

/** The rows a query selects, filtered and in its order (every page of it is a slice of this). */
export function selectEvalRuns(rows: readonly EvalRunRow[], query: EvalRunSelection): readonly EvalRunRow[] {
  const matching = rows.filter(
    (row) =>
      (!query.evalId || row.evalId === query.evalId) &&
      (!query.model || row.model === query.model) &&
      (!query.candidate || row.candidate === query.candidate) &&
      (!query.state || row.state === query.state),
  );
  const sort = query.sort ?? "started";
  const descending = query.descending === true;
  const bySlot = (a: EvalRunRow, b: EvalRunRow) =>
    compareText(a.evalId, b.evalId) || compareText(a.candidate, b.candidate) || a.repetition - b.repetition;
  const compare: Record<NonNullable<EvalRunQuery["sort"]>, (a: EvalRunRow, b: EvalRunRow) => number> = {
    // Rows arrive in the order the runs started; keep it stable.
    started: () => 0,
    eval: bySlot,
    model: (a, b) => compareText(a.candidate, b.candidate) || bySlot(a, b),
    score: (a, b) => compareKnown(a.value, b.value, descending),
    elapsed: (a, b) => compareKnown(a.elapsedMs, b.elapsedMs, descending),
    cost: (a, b) => compareKnown(a.costUSD, b.costUSD, descending),
  };
  const sorted = sort === "started" ? matching : [...matching].sort(compare[sort]);
  // Numeric sorts apply the direction themselves (unknowns stay last); the others are reversed whole.
  return descending && (sort === "started" || sort === "eval" || sort === "model") ? [...sorted].reverse() : sorted;
}

/**
 * Finds a cited message, part or tool call (a tool call's id is its part id) in the sessions' messages.
 * @example locateInTranscript(sessions, "prt_abc") // { sessionID: "ses_1", index: 4, messageID: "msg_9", partID: "prt_abc" }
 */
export function locateInTranscript(
  sessions: ReadonlyMap<string, readonly TranscriptMessage[]>,
  id: string,
): TranscriptLocation | null {
  for (const [sessionID, messages] of sessions) {
    for (const [index, message] of messages.entries()) {
      if (message.id === id) return { sessionID, index, messageID: message.id, partID: null };
      const part = message.parts.find(
        (candidate) => candidate.id === id || (candidate.kind === "tool" && candidate.callID === id),
      );
      if (part) return { sessionID, index, messageID: message.id, partID: part.id };
    }
  }
  return null;
}

/** The page (of `limit` messages) that holds message `index`: offsets are multiples of the limit. */
export function pageOffsetFor(index: number, limit: number): number {
  return Math.floor(index / limit) * limit;
}
