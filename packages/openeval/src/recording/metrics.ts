// RunMetrics: computed once from a recording and stored with it. Missing usage is null, never 0.
import type { ToolCall } from "./schema.ts";
import type { RunMetrics } from "../records/index.ts";

/** The RunMetrics version written now (see RunMetricsSchema). */
export const METRICS_VERSION = 2;

/** Tool reliability: failed / (succeeded + failed); calls that never finished are counted apart. */
export function measureTools(tools: readonly ToolCall[]): RunMetrics["tools"] {
  const succeeded = tools.filter((tool) => tool.status === "completed").length;
  const failed = tools.filter((tool) => tool.status === "error").length;
  const terminal = succeeded + failed;
  return {
    calls: tools.length,
    succeeded,
    failed,
    unfinished: tools.length - terminal,
    errorRate: terminal === 0 ? null : failed / terminal,
  };
}

/** Metrics of constructed evidence: no model ran, so usage, requests and timing are unavailable. */
export function measureConstructed(tools: readonly ToolCall[]): RunMetrics {
  return {
    version: METRICS_VERSION,
    cost: { usd: null },
    tokens: { input: null, output: null, reasoning: null, cacheRead: null, cacheWrite: null },
    tools: measureTools(tools),
    requests: null,
    compactions: null,
    truncated: null,
    timing: { elapsedMs: null, modelActiveMs: null, outputTokensPerSecond: null },
  };
}
