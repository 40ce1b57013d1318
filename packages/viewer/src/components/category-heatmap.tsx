// Categories × candidates as a heat map: each cell coloured by the candidate's score in the category (red 0, amber
// 50, green 100), with the score written in it and, where the cell is large enough, its 95% CI (or the completion
// bounds of a score still unresolved). Cells carry their numbers (data-*) as the API gives them.
import { formatScore } from "../format.ts";
import type { CategoryGrid } from "./category-grid.ts";
import { describeCell } from "./category-radar.tsx";
import { fitText, LABEL_FONT, lineHeight, measureText } from "./label-layout.ts";
import { heatColor } from "./matrix-plots.tsx";
import { PlotFrame, useFittedWidth } from "./plot-frame.tsx";
import { heatmapLayout } from "./heatmap-layout.ts";

export function CategoryHeatmap({ grid }: { grid: CategoryGrid }) {
  const { frameRef, width } = useFittedWidth(640, 300);
  const layout = heatmapLayout(width, grid.categories, grid.candidates, measureText, lineHeight());
  const { left, top, cellWidth, cellHeight, rotated, details } = layout;
  const pairs = grid.categories.flatMap((category) =>
    grid.candidates.map((candidate) => ({ category, candidate, cell: grid.cell(category, candidate) })),
  );
  return (
    <PlotFrame
      testId="category-heatmap"
      title="Category heatmap: score per category and model"
      description={pairs.map((pair) => `${pair.candidate}, ${describeCell(pair.category, pair.cell)}`).join("; ")}
      width={layout.width}
      height={layout.height}
      frameRef={frameRef}
    >
      {grid.candidates.map((candidate, column) => {
        const x = left + column * cellWidth + cellWidth / 2;
        return rotated ? (
          <text
            key={candidate}
            className="mark-label"
            transform={`translate(${x - 4} ${top - 8}) rotate(-40)`}
            data-column={candidate}
          >
            {fitText(candidate, layout.columnLabelWidth)}
          </text>
        ) : (
          <text key={candidate} className="mark-label" x={x} y={top - 8} textAnchor="middle" data-column={candidate}>
            {candidate}
          </text>
        );
      })}
      {grid.categories.map((category, line) => (
        <text
          key={category}
          className="mark-label"
          x={left - 8}
          y={top + line * cellHeight + cellHeight / 2 + LABEL_FONT * 0.35}
          textAnchor="end"
        >
          {fitText(category, left - 14)}
        </text>
      ))}
      {pairs.map(({ category, candidate, cell }) => {
        const x = left + grid.candidates.indexOf(candidate) * cellWidth;
        const y = top + grid.categories.indexOf(category) * cellHeight;
        const value = cell?.score.value ?? null;
        const range = cell?.interval ?? (cell && value === null ? cell.score : null);
        return (
          <g
            key={`${category}\u0000${candidate}`}
            className="heatmap-cell"
            data-category={category}
            data-candidate={candidate}
            data-score={value ?? ""}
            data-lower={cell?.score.lower ?? ""}
            data-upper={cell?.score.upper ?? ""}
            data-ci-lower={cell?.interval?.lower ?? ""}
            data-ci-upper={cell?.interval?.upper ?? ""}
          >
            <title>{`${candidate}, ${describeCell(category, cell)}`}</title>
            <rect
              className="heat-cell"
              x={x}
              y={y}
              width={cellWidth}
              height={cellHeight}
              fill={heatColor(value === null ? null : value / 100)}
            />
            <text
              className="heat-value"
              x={x + cellWidth / 2}
              y={y + (details ? cellHeight / 2 - 2 : cellHeight / 2 + 4)}
              textAnchor="middle"
              aria-hidden="true"
            >
              {value === null ? "—" : value.toFixed(1)}
            </text>
            {details && range ? (
              <text
                className="heat-range"
                x={x + cellWidth / 2}
                y={y + cellHeight / 2 + 12}
                textAnchor="middle"
                aria-hidden="true"
              >
                {cell?.interval ? `${range.lower.toFixed(1)}–${range.upper.toFixed(1)}` : boundsText(range)}
              </text>
            ) : null}
          </g>
        );
      })}
    </PlotFrame>
  );
}

const boundsText = (range: { lower: number; upper: number }) =>
  `${formatScore(range.lower, 0)}–${formatScore(range.upper, 0)}`;
