// One radar per candidate over the run's criterion categories (0 at the centre, 100 at the rim): the score polygon,
// and where a radar is large enough the band between its completion bounds and each category's 95% CI along its axis.
// Every category's mark carries its numbers (data-*), as the API gives them, for the browser tests.
import { useId } from "react";
import { formatScore } from "../format.ts";
import type { CategoryCell, CategoryGrid } from "./category-grid.ts";
import { modelColor } from "./matrix-plots.tsx";
import { layoutRadar, radarBand, radarPath, radarPoint, radarWhisker, type Radar } from "./radar-geometry.ts";
import { useFittedWidth } from "./plot-frame.tsx";

const GAP = 12;
const MIN_CELL = 250;
const MAX_CELL = 340;
/** Below this radius the bounds and CIs would crowd the polygon: the radar shows the scores only. */
export const DETAIL_MIN_RADIUS = 56;
const RINGS = [25, 50, 75, 100];

export function CategoryRadars({ grid }: { grid: CategoryGrid }) {
  const { frameRef, width } = useFittedWidth(900, 220);
  const fits = Math.floor((width + GAP) / (MIN_CELL + GAP));
  const columns = Math.max(1, Math.min(grid.candidates.length, fits));
  const cell = Math.min(MAX_CELL, Math.floor((width - GAP * (columns - 1)) / columns));
  const height = Math.round(cell * 0.8);
  const layout = layoutRadar(cell, height, grid.categories);
  const detailed = layout.radar.radius >= DETAIL_MIN_RADIUS;
  return (
    <figure className="plot category-radars" data-testid="category-radars" ref={frameRef}>
      <figcaption className="plot-title">Score per category, one radar per model</figcaption>
      <div className="radar-grid" style={{ gridTemplateColumns: `repeat(${columns}, ${cell}px)`, gap: GAP }}>
        {grid.candidates.map((candidate, index) => (
          <CandidateRadar
            key={candidate}
            candidate={candidate}
            cells={grid.categories.map((category) => grid.cell(category, candidate))}
            categories={grid.categories}
            color={modelColor(index)}
            layout={layout}
            detailed={detailed}
            width={cell}
            height={height}
          />
        ))}
      </div>
      <div className="plot-note muted small">
        {layout.numbered ? (
          <div data-testid="radar-key">
            {grid.categories.map((category, index) => `${index + 1} ${category}`).join(" · ")}
          </div>
        ) : null}
        {"0 at the centre, rings at 25, 50 and 75, 100 at the rim. "}
        {detailed
          ? "Shaded: the score. Band: where the completion bounds still let it land. Whiskers: 95% CI."
          : "Too small here for bounds and CIs: the heatmap and the table give them."}
      </div>
    </figure>
  );
}

interface CandidateRadarProps {
  candidate: string;
  cells: (CategoryCell | undefined)[];
  categories: string[];
  color: string;
  layout: ReturnType<typeof layoutRadar>;
  detailed: boolean;
  width: number;
  height: number;
}

function CandidateRadar({ candidate, cells, categories, color, layout, detailed, width, height }: CandidateRadarProps) {
  const { radar, labels } = layout;
  const values = cells.map((cell) => cell?.score.value ?? null);
  const complete = values.every((value) => value !== null);
  const band = radarBand(
    radar,
    cells.map((cell) => cell?.score.lower ?? 0),
    cells.map((cell) => cell?.score.upper ?? 100),
  );
  const description = categories.map((category, index) => describeCell(category, cells[index])).join("; ");
  const id = useId();
  return (
    <div className="radar">
      <div className="radar-name strong" title={candidate}>
        {candidate}
      </div>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-label={`category radar of ${candidate}`}
        aria-describedby={`${id}-desc`}
        data-candidate={candidate}
      >
        <desc id={`${id}-desc`}>{description}</desc>
        <RadarGrid radar={radar} />
        {detailed && band ? <path className="radar-band" d={band} fillRule="evenodd" fill={color} /> : null}
        {complete ? (
          <path className="radar-score" d={radarPath(radar, values as number[])} fill={color} stroke={color} />
        ) : null}
        {cells.map((cell, index) => (
          <RadarMark
            key={categories[index]}
            radar={radar}
            index={index}
            category={categories[index]!}
            cell={cell}
            color={color}
            detailed={detailed}
          />
        ))}
        {labels.map((label, index) => (
          <text key={index} className="mark-label" x={label.x} y={label.y} textAnchor={label.anchor}>
            {label.text}
          </text>
        ))}
      </svg>
    </div>
  );
}

/** The rings at 25, 50, 75 and 100, and an axis per category. */
function RadarGrid({ radar }: { radar: Radar }) {
  return (
    <g className="radar-grid-lines" aria-hidden="true">
      {RINGS.map((level) => (
        <path key={level} className="grid" d={radarPath(radar, Array(radar.count).fill(level))} fill="none" />
      ))}
      {Array.from({ length: radar.count }, (_, index) => {
        const end = radarPoint(radar, index, 100);
        return <line key={index} className="grid" x1={radar.center.x} y1={radar.center.y} x2={end.x} y2={end.y} />;
      })}
    </g>
  );
}

function RadarMark(props: {
  radar: Radar;
  index: number;
  category: string;
  cell: CategoryCell | undefined;
  color: string;
  detailed: boolean;
}) {
  const { radar, index, category, cell, color, detailed } = props;
  const value = cell?.score.value ?? null;
  const interval = cell?.interval ?? null;
  const whisker = detailed && interval ? radarWhisker(radar, index, interval.lower, interval.upper) : null;
  const point = value === null ? null : radarPoint(radar, index, value);
  return (
    <g
      className="radar-mark"
      data-category={category}
      data-score={value ?? ""}
      data-lower={cell?.score.lower ?? ""}
      data-upper={cell?.score.upper ?? ""}
      data-ci-lower={interval?.lower ?? ""}
      data-ci-upper={interval?.upper ?? ""}
    >
      <title>{describeCell(category, cell)}</title>
      {whisker ? (
        <g className="radar-whisker">
          {[whisker.line, ...whisker.caps].map(([from, to], part) => (
            <line key={part} x1={from.x} y1={from.y} x2={to.x} y2={to.y} />
          ))}
        </g>
      ) : null}
      {point ? <circle className="radar-dot" cx={point.x} cy={point.y} r={3.5} fill={color} /> : null}
    </g>
  );
}

export function describeCell(category: string, cell: CategoryCell | undefined): string {
  if (!cell) return `${category}: no score`;
  const { score, interval } = cell;
  const bounds = score.value === null ? `, bounds ${formatScore(score.lower)}–${formatScore(score.upper)}` : "";
  const ci = interval ? `, 95% CI ${interval.lower.toFixed(1)}–${interval.upper.toFixed(1)}` : "";
  return `${category}: ${score.value === null ? "unresolved" : formatScore(score.value)}${bounds}${ci}`;
}
