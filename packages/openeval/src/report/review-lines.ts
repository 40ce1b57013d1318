// The reviews a summary shows: each criterion a person scored in place of the judge, with the judge's score beside it.
import { describeSlot } from "../plan/index.ts";
import type { RunSummary } from "../summary/index.ts";

/** The reviews that decide a score now, one line each: slot, criterion, review and judge scores, who and why. */
export function reviewLines(summary: RunSummary): string[] {
  const word = (value: number | null) => (value === null ? "unresolved" : String(value));
  return (summary.reviews ?? []).flatMap(({ review, active }) => {
    if (active === null) return [];
    const agrees = active.judgeAgrees ? "; the judge now agrees" : "";
    const by = review.reviewer.name ?? review.reviewer.email ?? "unknown";
    return [
      `${describeSlot(review.slot)} ${review.criterion}: ${word(review.score)} (judge ${word(active.judged)}${agrees}) by ${by}: ${review.reason}`,
    ];
  });
}

/** "2 criteria reviewed by people", or null when none is. */
export function reviewedCount(lines: readonly string[]): string | null {
  if (lines.length === 0) return null;
  return `${lines.length} ${lines.length === 1 ? "criterion" : "criteria"} reviewed by people (their scores replace the judge's)`;
}
