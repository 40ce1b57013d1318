// Reporters: they subscribe to runner events and render them (plain lines, TTY progress, JSON) and summaries.
export { createPlainReporter, formatSeconds } from "./plain-reporter.ts";
export { createTtyProgress, formatDuration } from "./tty-progress.ts";
export { createJsonReporter } from "./json-reporter.ts";
export { formatSummary } from "./summary-table.ts";
export { formatJunit } from "./junit.ts";
export { formatMarkdownSummary } from "./markdown-summary.ts";
