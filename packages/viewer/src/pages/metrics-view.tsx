// RunMetrics of an eval run or a rubric judge's session as a table; each row carries its metric path (e.g.
// tools.errorRate) so a metric citation lands on it. Missing values read "—" (unavailable), never 0.
import { useEffect } from "react";
import type { RunMetrics } from "openeval/viewer-api";
import { Empty } from "../components/common.tsx";
import { formatDuration, formatNumber, formatUSD } from "../format.ts";
import { scrollToFocus } from "./focus.ts";

type Row = [path: string, label: string, value: string];

/** `none`: what to say when there are no metrics. */
export function MetricsView({
  metrics,
  focus,
  none = "No metrics were computed for this eval run.",
}: {
  metrics: RunMetrics | null;
  focus: string | null;
  none?: string;
}) {
  useEffect(() => {
    if (focus) scrollToFocus(`metric:${focus}`);
  }, [focus]);
  if (!metrics) return <Empty>{none}</Empty>;
  const percent = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)}%`);
  const groups: [string, Row[]][] = [
    [
      "Cost and tokens",
      [
        ["cost.usd", "Cost", metrics.cost.usd === null ? "unknown" : formatUSD(metrics.cost.usd)],
        ["tokens.input", "Input tokens", formatNumber(metrics.tokens.input)],
        ["tokens.output", "Output tokens", formatNumber(metrics.tokens.output)],
        ["tokens.reasoning", "Reasoning tokens", formatNumber(metrics.tokens.reasoning)],
        ["tokens.cacheRead", "Cache read", formatNumber(metrics.tokens.cacheRead)],
        ["tokens.cacheWrite", "Cache write", formatNumber(metrics.tokens.cacheWrite)],
      ],
    ],
    [
      "Tools",
      [
        ["tools.calls", "Calls", formatNumber(metrics.tools.calls)],
        ["tools.succeeded", "Succeeded", formatNumber(metrics.tools.succeeded)],
        ["tools.failed", "Failed", formatNumber(metrics.tools.failed)],
        ["tools.unfinished", "Unfinished", formatNumber(metrics.tools.unfinished)],
        ["tools.errorRate", "Error rate", percent(metrics.tools.errorRate)],
      ],
    ],
    [
      "Requests",
      [
        ["requests.started", "Started", formatNumber(metrics.requests?.started)],
        ["requests.succeeded", "Succeeded", formatNumber(metrics.requests?.succeeded)],
        ["requests.failed", "Failed", formatNumber(metrics.requests?.failed)],
        ["requests.retries", "Retries", formatNumber(metrics.requests?.retries)],
        ["compactions", "Compactions", formatNumber(metrics.compactions)],
        ["truncated", "Cut at the output limit", formatNumber(metrics.truncated)],
        ...Object.entries(metrics.requests?.finishReasons ?? {}).map(
          ([reason, count]): Row => [
            `requests.finishReasons.${reason}`,
            `Steps ending "${reason}"`,
            formatNumber(count),
          ],
        ),
      ],
    ],
    [
      "Timing",
      [
        ["timing.elapsedMs", "Elapsed", formatDuration(metrics.timing.elapsedMs)],
        ["timing.modelActiveMs", "Model active", formatDuration(metrics.timing.modelActiveMs)],
        [
          "timing.outputTokensPerSecond",
          "Output tokens / s",
          metrics.timing.outputTokensPerSecond === null ? "—" : metrics.timing.outputTokensPerSecond.toFixed(1),
        ],
      ],
    ],
  ];
  return (
    <div className="metrics" data-testid="metrics">
      {groups.map(([title, rows]) => (
        <table key={title} className="table metrics-table">
          <thead>
            <tr>
              <th colSpan={3}>{title}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([path, label, value]) => (
              <tr key={path} data-id={`metric:${path}`} className={focus === path ? "focused" : ""}>
                <td>{label}</td>
                <td className="number strong">{value}</td>
                <td className="mono muted small">{path}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
