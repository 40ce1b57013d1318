// The leaderboard at a glance: each model's score with its completion bounds (band) and 95% CI (whiskers), and
// cost or time against score with the Pareto front (no other model is both cheaper/faster and better) marked.
import type { LeaderboardRow } from "openeval/viewer-api";
import { formatDuration, formatScore, formatUSD } from "../format.ts";
import {
  fitText,
  groupOverlapping,
  lineHeight,
  markBox,
  measureText,
  placeLabels,
  type PlacedLabel,
} from "./label-layout.ts";
import { linearScale, PlotFrame, useFittedWidth, XAxis, YAxis } from "./plot-frame.tsx";

export function ScoreIntervalPlot({ rows }: { rows: readonly LeaderboardRow[] }) {
  const { frameRef, width } = useFittedWidth(640, 320);
  // A few models get roomy rows, so the plot keeps the height of its neighbours; any row holds a two-line label.
  const ROW = Math.max(2 * lineHeight(), Math.min(60, 200 / Math.max(rows.length, 1)));
  const height = 40 + rows.length * ROW;
  // The names' column is as wide as the longest needs, up to 40% of the plot; a longer name goes on two lines.
  const column = Math.min(Math.max(...rows.map((row) => measureText(row.candidate)), 40), width * 0.4);
  const LABEL = column + 14;
  const x = linearScale([0, 100], [LABEL, width - 16], 5);
  const axisY = 12 + rows.length * ROW;
  const describe = (row: LeaderboardRow) =>
    `${row.candidate}: score ${formatScore(row.score.value)}, bounds ${formatScore(row.score.lower)}–${formatScore(row.score.upper)}, 95% CI ${row.ci ? `${row.ci.lower.toFixed(1)}–${row.ci.upper.toFixed(1)}` : "none"}`;
  return (
    <PlotFrame
      testId="score-plot"
      title="Score, completion bounds and 95% CI"
      description={rows.map(describe).join("; ")}
      width={width}
      height={height}
      frameRef={frameRef}
    >
      <XAxis scale={x} y={axisY} top={4} format={(value) => `${value}`} />
      {rows.map((row, index) => {
        const y = 12 + index * ROW + ROW / 2 - 4;
        return (
          <g
            key={row.candidate}
            className="score-mark"
            data-model={row.model}
            data-variant={row.variant ?? "current"}
            data-score={row.score.value ?? ""}
            data-ci-lower={row.ci?.lower ?? ""}
            data-ci-upper={row.ci?.upper ?? ""}
            aria-label={describe(row)}
          >
            <title>{describe(row)}</title>
            <CandidateName row={row} x={LABEL - 10} y={y} width={column} />
            <rect
              className="bounds-band"
              x={x(row.score.lower)}
              width={Math.max(x(row.score.upper) - x(row.score.lower), 1.5)}
              y={y - 7}
              height={14}
              rx={3}
            />
            {row.ci ? (
              <g className="ci-whisker">
                <line x1={x(row.ci.lower)} x2={x(row.ci.upper)} y1={y} y2={y} />
                <line x1={x(row.ci.lower)} x2={x(row.ci.lower)} y1={y - 5} y2={y + 5} />
                <line x1={x(row.ci.upper)} x2={x(row.ci.upper)} y1={y - 5} y2={y + 5} />
              </g>
            ) : null}
            {row.score.value !== null ? (
              <circle className={`score-dot ${row.control ? "control" : ""}`} cx={x(row.score.value)} cy={y} r={5} />
            ) : null}
          </g>
        );
      })}
    </PlotFrame>
  );
}

/** A candidate's name, right-aligned at `x`: on one line if it fits `width`, else the model over its `[variant]`. */
function CandidateName({ row, x, y, width }: { row: LeaderboardRow; x: number; y: number; width: number }) {
  const lines = measureText(row.candidate) <= width || !row.variant ? [row.candidate] : [row.model, `[${row.variant}]`];
  const first = y + 4 - ((lines.length - 1) * lineHeight()) / 2;
  return (
    <text className="mark-label" x={x} y={first} textAnchor="end">
      {lines.map((line, index) => (
        <tspan key={index} x={x} dy={index === 0 ? 0 : lineHeight()}>
          {fitText(line, width)}
        </tspan>
      ))}
    </text>
  );
}

/** Models on the Pareto front: no other model is at most as costly (x) and at least as good (y), better in one. */
export function paretoFront<T>(points: readonly T[], x: (point: T) => number, y: (point: T) => number): Set<T> {
  return new Set(
    points.filter(
      (point) =>
        !points.some(
          (other) =>
            other !== point &&
            x(other) <= x(point) &&
            y(other) >= y(point) &&
            (x(other) < x(point) || y(other) > y(point)),
        ),
    ),
  );
}

export function TradeOffPlot({ rows, metric }: { rows: readonly LeaderboardRow[]; metric: "cost" | "time" }) {
  const { frameRef, width } = useFittedWidth(420, 300);
  const height = 260;
  const valueOf = (row: LeaderboardRow) => (metric === "cost" ? row.costUSD : row.medianElapsedMs);
  const format = metric === "cost" ? formatUSD : formatDuration;
  const plotted = rows.filter((row) => valueOf(row) !== null && row.score.value !== null);
  const left = 56;
  const bottom = height - 44;
  const x = linearScale([0, Math.max(...plotted.map((row) => valueOf(row)!), 0) * 1.1], [left, width - 18], 4);
  const y = linearScale([0, 100], [bottom, 14], 4);
  const front = paretoFront(
    plotted,
    (row) => valueOf(row)!,
    (row) => row.score.value!,
  );
  const frontLine = [...front].sort((a, b) => valueOf(a)! - valueOf(b)!);
  const path = frontLine
    .map((row, index) => `${index === 0 ? "M" : "L"}${x(valueOf(row)!)},${y(row.score.value!)}`)
    .join(" ");
  const left_out = rows.length - plotted.length;
  const label = metric === "cost" ? "Cost (total USD)" : "Median time per eval run";
  const describe = (row: LeaderboardRow) =>
    `${row.candidate}: ${format(valueOf(row))}, score ${formatScore(row.score.value)}${front.has(row) ? ", on the Pareto front" : ""}`;
  const marks = plotted.map((row) => ({
    row,
    x: x(valueOf(row)!),
    y: y(row.score.value!),
    r: front.has(row) ? 6.5 : 5,
  }));
  // The Pareto front's names first, then the best scores: they get the spots beside their marks.
  const byImportance = [...marks].sort(
    (a, b) => Number(front.has(b.row)) - Number(front.has(a.row)) || b.row.score.value! - a.row.score.value!,
  );
  const labels = placeLabels(
    groupOverlapping(byImportance).map((group) => ({
      key: group.marks[0]!.row.candidate,
      lines: group.marks.map((mark) => mark.row.candidate),
      anchor: group.anchor,
    })),
    {
      bounds: { x: left + 2, y: 2, width: width - left - 4, height: bottom - 4 },
      obstacles: marks.map((mark) => markBox(mark.x, mark.y, mark.r + 1)),
      lines: frontLine.slice(1).map((row, index) => ({
        x1: x(valueOf(frontLine[index]!)!),
        y1: y(frontLine[index]!.score.value!),
        x2: x(valueOf(row)!),
        y2: y(row.score.value!),
      })),
    },
  );
  return (
    <PlotFrame
      testId={`${metric}-plot`}
      title={`${metric === "cost" ? "Cost" : "Time"} against score`}
      description={`${plotted.map(describe).join("; ")}${left_out > 0 ? `; ${left_out} model(s) without a known ${metric} or score are not shown` : ""}`}
      width={width}
      height={height}
      frameRef={frameRef}
      note={
        labels.unplaced.length > 0
          ? `No room to name ${labels.unplaced.flatMap((label) => label.lines).join(", ")} here: hover a point for its numbers.`
          : undefined
      }
    >
      <XAxis scale={x} y={bottom} top={14} format={(value) => format(value)} label={label} />
      <YAxis scale={y} x={left} right={width - 18} format={(value) => `${value}`} label="Score" />
      {frontLine.length > 1 ? <path className="pareto-line" d={path} /> : null}
      {marks.map(({ row, x: cx, y: cy, r }) => (
        <g
          key={row.candidate}
          className="trade-mark"
          data-model={row.model}
          data-variant={row.variant ?? "current"}
          data-x={valueOf(row)!}
          data-score={row.score.value!}
          data-pareto={front.has(row) ? "1" : "0"}
          aria-label={describe(row)}
        >
          <title>{describe(row)}</title>
          <circle
            className={`trade-dot ${front.has(row) ? "pareto" : ""} ${row.control ? "control" : ""}`}
            cx={cx}
            cy={cy}
            r={r}
          />
        </g>
      ))}
      {/* After every mark, so that no mark is drawn over a name. */}
      {labels.placed.map((label) => (
        <PlacedText key={label.key} label={label} />
      ))}
      {plotted.length === 0 ? (
        <text className="plot-empty" x={width / 2} y={height / 2} textAnchor="middle">
          No model has a known {metric} and score yet
        </text>
      ) : null}
    </PlotFrame>
  );
}

/** A placed label, with its leader line when it sits away from its mark. */
export function PlacedText({ label }: { label: PlacedLabel }) {
  return (
    <g className="placed-label" data-label={label.key}>
      {label.leader ? (
        <line
          className="leader-line"
          x1={label.leader.x1}
          y1={label.leader.y1}
          x2={label.leader.x2}
          y2={label.leader.y2}
        />
      ) : null}
      <text className="mark-label" x={label.x} y={label.y} textAnchor={label.align}>
        {label.lines.map((line, index) => (
          <tspan key={index} x={label.x} dy={index === 0 ? 0 : lineHeight()}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

export function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
