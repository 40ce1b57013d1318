// The reviews a summary shows: each criterion a person scored in place of the judge, with the judge's score beside it.
import { describeSlot } from "../plan/index.ts";
import type { RunSummary } from "../summary/index.ts";

/** Lines shown before the rest are only counted (`report --json` lists every review). */
const LISTED = 20;

/**
 * The reviews that decide a score now: a title counting them, and a line each (slot, criterion, review and judge
 * scores, who and why), the first LISTED of them. Null when none does.
 */
export function reviewBlock(summary: RunSummary): { title: string; lines: string[] } | null {
  const word = (value: number | null) => (value === null ? "unresolved" : String(value));
  const lines = (summary.reviews ?? []).flatMap(({ review, active }) => {
    if (active === null) return [];
    const agrees = active.judgeAgrees ? "; the judge now agrees" : "";
    const by = review.reviewer.name ?? review.reviewer.email ?? "unknown";
    return [
      `${describeSlot(review.slot)} ${review.criterion}: ${word(review.score)} (judge ${word(active.judged)}${agrees}) by ${by}: ${review.reason}`,
    ];
  });
  if (lines.length === 0) return null;
  const more = lines.length - LISTED;
  return {
    title: `${lines.length} ${lines.length === 1 ? "criterion" : "criteria"} reviewed by people (their scores replace the judge's)`,
    lines: more > 0 ? [...lines.slice(0, LISTED), `… and ${more} more (report --json lists them)`] : lines,
  };
}
