// How every report says the judges' agreement: each criterion a panel judged, with Krippendorff's α, its interval
// and units, the unreliable ones named, and how many verdict decisions their failures being advisory changed.
import type { CriterionAgreement } from "../results/index.ts";
import type { RunSummary } from "../summary/index.ts";

/** `<eval>/<criterion> α 0.42 [0.1, 0.71] over 6 recording(s), nominal, judges a, b — unreliable`. */
export function agreementLine(entry: CriterionAgreement): string {
  const alpha = entry.alpha === null ? "α n/a" : `α ${round(entry.alpha)}`;
  const interval = entry.interval ? ` [${round(entry.interval.lower)}, ${round(entry.interval.upper)}]` : "";
  const verdict = entry.unreliable ? " — unreliable" : "";
  return `${entry.evalId}/${entry.criterionId} ${alpha}${interval} over ${entry.units} recording(s), ${entry.level}, judges ${entry.judges.join(", ")}${verdict}`;
}

/** What unreliable criteria did to this verdict, in one sentence; null when no criterion is unreliable. */
export function agreementEffect(summary: Pick<RunSummary, "verdict">): string | null {
  const effect = summary.verdict.agreement;
  if (!effect || effect.unreliable.length === 0) return null;
  const named = effect.unreliable.join(", ");
  if (effect.strict) return `Unreliable criteria (${named}) block like any other: judge.strict is on.`;
  const { gates, cells, regressions } = effect.changed;
  return `Unreliable criteria (${named}) are advisory: that changed ${gates} gate decision(s), ${cells} criterion cell(s) and ${regressions} regression(s) from fail to advisory.`;
}

/** The summary's "Judge agreement" block; empty when no criterion was judged by a panel. */
export function agreementBlock(summary: Pick<RunSummary, "agreement" | "verdict">): string[] {
  const entries = summary.agreement ?? [];
  if (entries.length === 0) return [];
  const unreliable = entries.filter((entry) => entry.unreliable).length;
  const effect = agreementEffect(summary);
  return [
    `Judge agreement (Krippendorff's α): ${entries.length} criterion(s) judged by a panel, ${unreliable} unreliable:`,
    ...entries.map((entry) => `  ${agreementLine(entry)}`),
    ...(effect ? [`  ${effect}`] : []),
  ];
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}
