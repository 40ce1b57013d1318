// Reporters: they subscribe to runner events and render them (plain lines, TTY progress, JSON) and summaries.
export {
  chooseEventReporter,
  createEventReporter,
  type ReporterOutput,
} from "./event-reporters.ts";
export { formatSeconds } from "./plain-reporter.ts";
export { formatDuration } from "./tty-progress.ts";
export { formatSummary } from "./summary-table.ts";
export { formatCaseTable } from "./case-table.ts";
export { formatJunit } from "./junit.ts";
export { formatMarkdownSummary } from "./markdown-summary.ts";
export { formatReviewCalibration } from "./review-calibration.ts";
export { formatBaselineDeltas } from "./baseline-deltas.ts";
