// How reports say where adaptive repetitions stand: the round reached against max, each comparison's decision with
// its interval, and the slots and spend a decision spared.
import type { AdaptiveComparison, RunSummary } from "../summary/index.ts";

/** The summary's "Adaptive repetitions" block; empty without them. */
export function adaptiveBlock(summary: Pick<RunSummary, "adaptive">): string[] {
  const adaptive = summary.adaptive;
  if (!adaptive) return [];
  const spared =
    adaptive.saved.slots === 0
      ? "nothing spared"
      : `${adaptive.saved.slots} slot${adaptive.saved.slots === 1 ? "" : "s"} spared (${adaptive.saved.usd === null ? "spend unknown" : `~$${adaptive.saved.usd.toFixed(4)} by their recorded costs`})`;
  return [
    `Adaptive repetitions (decide ${adaptive.decided}${adaptive.margin === null ? "" : `, margin ±${adaptive.margin}`}): ${adaptive.level} of max ${adaptive.max} repetitions used; ${spared}`,
    ...(adaptive.note ? [`  ${adaptive.note}`] : []),
    ...adaptive.comparisons.map((comparison) => `  ${comparisonLine(comparison)}`),
  ];
}

/** `p/a [hinted] against p/a: different after repetition 2 (mean +1.00, interval 0.12 to 1.88, 18 pairs)`. */
export function comparisonLine(comparison: AdaptiveComparison): string {
  const { look } = comparison;
  const decided =
    comparison.decidedAfter === null ? "not decided" : `${look.decision} after repetition ${comparison.decidedAfter}`;
  const numbers =
    look.mean === null
      ? "no pair yet"
      : `mean ${signed(look.mean)}, interval ${look.lower!.toFixed(2)} to ${look.upper!.toFixed(2)}, ${look.pairs} pairs`;
  return `${comparison.a} against ${comparison.b}: ${decided} (${numbers})`;
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(2)}`;
}
