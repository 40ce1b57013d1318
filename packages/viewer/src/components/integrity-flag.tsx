// The integrity flag: a slot's (or a cell's) integrity findings at a glance — a flag icon with their count, red when
// one fails the verdict, amber when all are warnings — and the same words for screen readers and tooltips.
import type { IntegrityFlag } from "openeval/viewer-api";

/** "integrity: 2 findings (fail)" */
export function describeIntegrityFlag(flag: IntegrityFlag): string {
  return `integrity: ${flag.findings} ${flag.findings === 1 ? "finding" : "findings"} (${flag.severity})`;
}

export function IntegrityFlagBadge({ flag, href }: { flag: IntegrityFlag; href?: string }) {
  const label = describeIntegrityFlag(flag);
  const tone = flag.severity === "fail" ? "bad" : "warn";
  const content = (
    <>
      <span aria-hidden="true">⚑</span>
      <span aria-hidden="true">{flag.findings}</span>
    </>
  );
  const props = {
    className: `integrity-flag tone-${tone}`,
    title: label,
    "aria-label": label,
    "data-testid": "integrity-flag",
    "data-severity": flag.severity,
    "data-findings": flag.findings,
  };
  return href ? (
    <a {...props} href={href}>
      {content}
    </a>
  ) : (
    <span role="img" {...props}>
      {content}
    </span>
  );
}
