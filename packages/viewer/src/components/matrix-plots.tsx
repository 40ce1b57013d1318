// The eval × model matrix as pictures, a page of evals at a time: a heat map of each model's mean credit per eval,
// and per eval the distribution of its repetitions (one dot per repetition and model). Marks name their cell with
// data-plot-eval/-model (data-eval marks the matrix's rows).
import type { MatrixAnswer } from "openeval/viewer-api";
import { formatCredit } from "../format.ts";
import { href } from "../route.ts";
import { fitText } from "./label-layout.ts";
import { truncate } from "./leaderboard-plots.tsx";
import { linearScale, PlotFrame, YAxis } from "./plot-frame.tsx";

const PALETTE = ["#4656e0", "#d9822b", "#1f8a4c", "#8a6fd1", "#c23a3a", "#2a9bb0", "#7a7f8c", "#b5477f"];
export const modelColor = (index: number) => PALETTE[index % PALETTE.length]!;

/** Red (0) through amber (0.5) to green (1). */
export function heatColor(value: number | null): string {
  if (value === null) return "#eceef3";
  const stops: [number, [number, number, number]][] = [
    [0, [235, 150, 150]],
    [0.5, [246, 214, 128]],
    [1, [116, 196, 140]],
  ];
  const upper = stops.findIndex(([at]) => at >= value);
  if (upper <= 0) return `rgb(${stops[Math.max(upper, 0)]![1].join(",")})`;
  const [[a, from], [b, to]] = [stops[upper - 1]!, stops[upper]!];
  const t = (value - a) / (b - a);
  return `rgb(${from.map((channel, index) => Math.round(channel + t * (to[index]! - channel))).join(",")})`;
}

const LEFT = 170;
/** Cells grow when a page has few evals, so a small run does not get a stamp-sized picture. */
const cellSize = (evals: number) => Math.round(Math.max(30, Math.min(64, 520 / Math.max(evals, 1))));

export function HeatMap({ run, page }: { run: string; page: MatrixAnswer }) {
  const CELL = cellSize(page.items.length);
  const width = LEFT + page.items.length * CELL + 10;
  const top = 96;
  const height = top + page.candidates.length * CELL + 8;
  const cells = page.items.flatMap((row) => row.cells.map((cell) => ({ evalId: row.evalId, ...cell })));
  const describe = (cell: (typeof cells)[number]) =>
    `${cell.evalId} × ${cell.candidate}: ${cell.score.value === null ? `unresolved (bounds ${formatCredit(cell.score.lower)}–${formatCredit(cell.score.upper)})` : formatCredit(cell.score.value)}`;
  return (
    <PlotFrame
      testId="heat-map"
      title={`Mean credit, models × evals (${page.offset + 1}–${page.offset + page.items.length} of ${page.total})`}
      description={cells.map(describe).join("; ")}
      width={Math.max(width, 360)}
      height={height}
    >
      {page.items.map((row, column) => (
        <text
          key={row.evalId}
          className="mark-label"
          transform={`translate(${LEFT + column * CELL + CELL / 2 + 4} ${top - 8}) rotate(-55)`}
        >
          {truncate(row.evalId, 16)}
        </text>
      ))}
      {page.candidates.map((candidate, line) => (
        <text key={candidate} className="mark-label" x={LEFT - 8} y={top + line * CELL + CELL / 2 + 4} textAnchor="end">
          {/* Shortened in the middle, so that a variant's `[name]` still tells its row from current's. */}
          {fitText(candidate, LEFT - 14)}
        </text>
      ))}
      {page.items.map((row, column) =>
        row.cells.map((cell, line) => {
          const label = describe({ evalId: row.evalId, ...cell });
          return (
            <a
              key={`${row.evalId}-${cell.candidate}`}
              href={href({ page: "run", run }, { tab: "eval-runs", eval: row.evalId, candidate: cell.candidate })}
              aria-label={label}
            >
              <rect
                className="heat-cell"
                data-plot-eval={row.evalId}
                data-plot-model={cell.candidate}
                data-value={cell.score.value ?? ""}
                x={LEFT + column * CELL}
                y={top + line * CELL}
                width={CELL}
                height={CELL}
                fill={heatColor(cell.score.value)}
              >
                <title>{label}</title>
              </rect>
              {CELL >= 44 ? (
                <text
                  className="heat-value"
                  x={LEFT + column * CELL + CELL / 2}
                  y={top + line * CELL + CELL / 2 + 4}
                  textAnchor="middle"
                  aria-hidden="true"
                >
                  {formatCredit(cell.score.value)}
                </text>
              ) : null}
            </a>
          );
        }),
      )}
    </PlotFrame>
  );
}

export function RepetitionPlot({ page }: { page: MatrixAnswer }) {
  const spacing = 14;
  const band = Math.max(cellSize(page.items.length), page.candidates.length * spacing + 12);
  const left = 50;
  const bottom = 170;
  const width = left + page.items.length * band + 10;
  const y = linearScale([0, 1], [bottom, 10], 4);
  const dots = page.items.flatMap((row, column) =>
    row.cells.flatMap((cell, modelIndex) =>
      cell.slots
        .filter((slot) => slot.value !== null)
        // Repetitions with the same credit sit side by side rather than on top of each other.
        .map((slot) => ({
          evalId: row.evalId,
          model: cell.candidate,
          modelIndex,
          repetition: slot.repetition,
          value: slot.value!,
          cx:
            left +
            column * band +
            (band - page.candidates.length * spacing) / 2 +
            modelIndex * spacing +
            ((slot.repetition - 1) % 3) * 3,
        })),
    ),
  );
  const describe = (dot: (typeof dots)[number]) =>
    `${dot.evalId} × ${dot.model} #${dot.repetition}: ${formatCredit(dot.value)}`;
  return (
    <PlotFrame
      testId="repetition-plot"
      title="Repetitions per eval (one dot per repetition)"
      description={dots.length > 0 ? dots.map(describe).join("; ") : "No judged repetition on this page"}
      width={Math.max(width, 360)}
      height={bottom + 60}
    >
      <YAxis scale={y} x={left} right={width - 10} format={(value) => `${Math.round(value * 100)}%`} />
      {page.items.map((row, column) => (
        <text
          key={row.evalId}
          className="mark-label"
          transform={`translate(${left + column * band + band / 2 - 4} ${bottom + 12}) rotate(35)`}
        >
          {truncate(row.evalId, 14)}
        </text>
      ))}
      {dots.map((dot) => (
        <circle
          key={`${dot.evalId}-${dot.model}-${dot.repetition}`}
          className="rep-dot"
          data-plot-eval={dot.evalId}
          data-plot-model={dot.model}
          data-value={dot.value}
          cx={dot.cx}
          cy={y(dot.value)}
          r={4}
          fill={modelColor(dot.modelIndex)}
          fillOpacity={0.8}
        >
          <title>{describe(dot)}</title>
        </circle>
      ))}
    </PlotFrame>
  );
}

export function ModelLegend({ models }: { models: readonly string[] }) {
  return (
    <div className="plot-legend">
      {models.map((model, index) => (
        <span key={model}>
          <span className="swatch" style={{ background: modelColor(index) }} />
          {model}
        </span>
      ))}
    </div>
  );
}
