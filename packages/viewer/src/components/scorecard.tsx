// The benchmark scorecard: one picture of a run to share — each model's score with its 95% CI and bounds, its cost
// and its score per category — with buttons that save it as PNG (drawn in the browser) or SVG. It styles itself with
// attributes, never the page's stylesheet, so the saved file looks as the page does. Rows and category cells carry
// their numbers (data-*) as the API gives them.
import { useId, useRef, useState } from "react";
import type { LeaderboardRow, RunOverview } from "openeval/viewer-api";
import { formatDate } from "../format.ts";
import type { CategoryGrid } from "./category-grid.ts";
import { ErrorBox } from "./common.tsx";
import { fitText, measureText } from "./label-layout.ts";
import { heatColor } from "./matrix-plots.tsx";
import {
  costText,
  FONT,
  FOOTER_LINE,
  PAD_CELL,
  PADDING,
  scorecardFileName,
  scorecardLayout,
  type ScorecardColumn,
  type ScorecardLayout,
} from "./scorecard-layout.ts";
import { renderPng, saveBlob, standaloneSvg, svgBlob } from "./svg-download.ts";

const COLOR = {
  text: "#1c2230",
  muted: "#6b7385",
  rule: "#e3e6eb",
  track: "#eef0f4",
  band: "#dfe3fb",
  whisker: "#2d3a9c",
  dot: "#4656e0",
  control: "#8a6fd1",
} as const;

export function Scorecard({
  overview,
  rows,
  grid,
}: {
  overview: RunOverview;
  rows: readonly LeaderboardRow[];
  grid: CategoryGrid | null;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const descriptionId = useId();
  const [error, setError] = useState<Error | null>(null);
  const categories = grid?.categories ?? [];
  const layout = scorecardLayout(
    {
      candidates: rows.map((row) => row.candidate),
      costs: rows.map(costText),
      categories,
      footer: `Scores 0–100: the mean over evals of each eval's mean criterion credit; a category scores only its criteria. Bar: completion bounds (band) and 95% CI (whiskers, bootstrap clustered by eval). Cost: candidate spend in USD. Run ${overview.run.id}.`,
    },
    measureText,
    fitText,
  );
  const save = async (extension: "png" | "svg") => {
    setError(null);
    try {
      const svg = standaloneSvg(svgRef.current!);
      saveBlob(
        extension === "png" ? await renderPng(svg) : svgBlob(svg),
        scorecardFileName(overview.run.id, extension),
      );
    } catch (reason) {
      setError(reason instanceof Error ? reason : new Error(String(reason)));
    }
  };
  const font = typeof document === "undefined" ? "sans-serif" : getComputedStyle(document.documentElement).fontFamily;
  const innerWidth = layout.width - 2 * PADDING;
  const { run } = overview;
  const about = [
    run.name,
    formatDate(run.createdAt),
    `${run.evals.length} eval${run.evals.length === 1 ? "" : "s"} × ${run.repetitions} repetition${run.repetitions === 1 ? "" : "s"}`,
    overview.verdictWords ? `verdict: ${overview.verdictWords.headline}` : "no verdict",
  ].join(" · ");
  return (
    <figure className="scorecard" data-testid="scorecard">
      <figcaption className="plot-title scorecard-head">
        <span>Scorecard</span>
        <span className="scorecard-actions">
          <button type="button" className="button small" onClick={() => void save("png")}>
            Download PNG
          </button>
          <button type="button" className="button small" onClick={() => void save("svg")}>
            Download SVG
          </button>
        </span>
      </figcaption>
      <svg
        ref={svgRef}
        xmlns="http://www.w3.org/2000/svg"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width={layout.width}
        height={layout.height}
        style={{ maxWidth: "100%", height: "auto" }}
        role="img"
        aria-label="scorecard"
        aria-describedby={descriptionId}
        fontFamily={font}
        data-run={run.id}
      >
        <title>{`Benchmark scorecard: ${run.name}`}</title>
        <desc id={descriptionId}>{rows.map((row) => describeRow(row, grid)).join("; ")}</desc>
        <rect
          x={0.5}
          y={0.5}
          width={layout.width - 1}
          height={layout.height - 1}
          rx={10}
          fill="#ffffff"
          stroke={COLOR.rule}
        />
        <text x={PADDING} y={layout.titleY} fontSize={FONT.title} fontWeight={700} fill={COLOR.text}>
          Benchmark scorecard
        </text>
        <text x={PADDING} y={layout.subtitleY} fontSize={FONT.subtitle} fill={COLOR.muted}>
          {fitText(about, innerWidth, FONT.subtitle)}
        </text>
        <HeaderRow layout={layout} />
        {rows.map((row, index) => (
          <ScorecardRow key={row.candidate} row={row} rank={index + 1} grid={grid} layout={layout} />
        ))}
        {layout.footer.map((line, index) => (
          <text
            key={index}
            x={PADDING}
            y={layout.footerY + index * FOOTER_LINE}
            fontSize={FONT.footer}
            fill={COLOR.muted}
          >
            {fitText(line, innerWidth, FONT.footer)}
          </text>
        ))}
      </svg>
      {error ? <ErrorBox error={error} /> : null}
    </figure>
  );
}

function HeaderRow({ layout }: { layout: ScorecardLayout }) {
  return (
    <g>
      {layout.columns.map((column) => (
        <text
          key={column.key}
          x={anchorX(column)}
          y={layout.headerY}
          textAnchor={column.align}
          fontSize={FONT.header}
          fontWeight={600}
          fill={COLOR.muted}
        >
          {column.header}
        </text>
      ))}
      <line
        x1={PADDING}
        x2={layout.width - PADDING}
        y1={layout.ruleY}
        y2={layout.ruleY}
        stroke={COLOR.rule}
        strokeWidth={1}
      />
    </g>
  );
}

function ScorecardRow({
  row,
  rank,
  grid,
  layout,
}: {
  row: LeaderboardRow;
  rank: number;
  grid: CategoryGrid | null;
  layout: ScorecardLayout;
}) {
  const top = layout.rowTop(rank - 1);
  const middle = top + layout.rowHeight / 2;
  const baseline = middle + FONT.body * 0.35;
  const cellText = (column: ScorecardColumn, value: string, options: { bold?: boolean; muted?: boolean } = {}) => (
    <text
      x={anchorX(column)}
      y={baseline}
      textAnchor={column.align}
      fontSize={FONT.body}
      fontWeight={options.bold ? 600 : 400}
      fill={options.muted ? COLOR.muted : COLOR.text}
    >
      {value}
    </text>
  );
  return (
    <g
      className="scorecard-row"
      data-candidate={row.candidate}
      data-score={row.score.value ?? ""}
      data-lower={row.score.lower}
      data-upper={row.score.upper}
      data-ci-lower={row.ci?.lower ?? ""}
      data-ci-upper={row.ci?.upper ?? ""}
      data-cost={row.costUSD ?? ""}
    >
      {layout.columns.map((column) => {
        switch (column.key) {
          case "rank":
            return <g key={column.key}>{cellText(column, String(rank), { muted: true })}</g>;
          case "candidate":
            return (
              <g key={column.key}>
                {cellText(column, fitText(row.candidate, column.width - 2 * PAD_CELL - 4, FONT.body * 1.08), {
                  bold: true,
                })}
              </g>
            );
          case "score":
            return (
              <g key={column.key}>
                {cellText(column, row.score.value === null ? "—" : row.score.value.toFixed(1), { bold: true })}
              </g>
            );
          case "ci":
            return (
              <g key={column.key}>
                {cellText(column, row.ci ? `${row.ci.lower.toFixed(1)}–${row.ci.upper.toFixed(1)}` : "—", {
                  muted: true,
                })}
              </g>
            );
          case "bar":
            return <ScoreBar key={column.key} row={row} column={column} middle={middle} />;
          case "cost":
            return <g key={column.key}>{cellText(column, costText(row))}</g>;
          default:
            return (
              <CategoryCellMark
                key={column.key}
                category={column.key.slice("category:".length)}
                row={row}
                grid={grid}
                column={column}
                top={top}
                height={layout.rowHeight}
                baseline={baseline}
              />
            );
        }
      })}
      <line
        x1={PADDING}
        x2={layout.width - PADDING}
        y1={top + layout.rowHeight}
        y2={top + layout.rowHeight}
        stroke={COLOR.track}
        strokeWidth={1}
      />
    </g>
  );
}

/** The score on a 0–100 track: the completion bounds as a band, the CI as whiskers, the score as a dot. */
function ScoreBar({ row, column, middle }: { row: LeaderboardRow; column: ScorecardColumn; middle: number }) {
  const left = column.x + PAD_CELL;
  const span = column.width - 2 * PAD_CELL;
  const at = (value: number) => left + (Math.min(Math.max(value, 0), 100) / 100) * span;
  return (
    <g>
      <line
        x1={left}
        x2={left + span}
        y1={middle}
        y2={middle}
        stroke={COLOR.track}
        strokeWidth={6}
        strokeLinecap="round"
      />
      <rect
        x={at(row.score.lower)}
        y={middle - 6}
        width={Math.max(at(row.score.upper) - at(row.score.lower), 1.5)}
        height={12}
        rx={3}
        fill={COLOR.band}
      />
      {row.ci ? (
        <g stroke={COLOR.whisker} strokeWidth={1.6}>
          <line x1={at(row.ci.lower)} x2={at(row.ci.upper)} y1={middle} y2={middle} />
          <line x1={at(row.ci.lower)} x2={at(row.ci.lower)} y1={middle - 5} y2={middle + 5} />
          <line x1={at(row.ci.upper)} x2={at(row.ci.upper)} y1={middle - 5} y2={middle + 5} />
        </g>
      ) : null}
      {row.score.value !== null ? (
        <circle
          cx={at(row.score.value)}
          cy={middle}
          r={4.5}
          fill={row.control ? COLOR.control : COLOR.dot}
          stroke="#ffffff"
          strokeWidth={1.5}
        />
      ) : null}
    </g>
  );
}

function CategoryCellMark(props: {
  category: string;
  row: LeaderboardRow;
  grid: CategoryGrid | null;
  column: ScorecardColumn;
  top: number;
  height: number;
  baseline: number;
}) {
  const { category, row, grid, column, top, height, baseline } = props;
  const cell = grid?.cell(category, row.candidate);
  const value = cell?.score.value ?? null;
  return (
    <g
      className="scorecard-category"
      data-category={category}
      data-score={value ?? ""}
      data-ci-lower={cell?.interval?.lower ?? ""}
      data-ci-upper={cell?.interval?.upper ?? ""}
    >
      <rect
        x={column.x + 3}
        y={top + 3}
        width={column.width - 6}
        height={height - 6}
        rx={4}
        fill={cell ? heatColor(value === null ? null : value / 100) : "#ffffff"}
      />
      <text
        x={anchorX(column)}
        y={baseline}
        textAnchor="middle"
        fontSize={FONT.body}
        fontWeight={600}
        fill={COLOR.text}
      >
        {value === null ? "—" : value.toFixed(1)}
      </text>
    </g>
  );
}

function anchorX(column: ScorecardColumn): number {
  if (column.align === "start") return column.x + PAD_CELL;
  if (column.align === "end") return column.x + column.width - PAD_CELL;
  return column.x + column.width / 2;
}

function describeRow(row: LeaderboardRow, grid: CategoryGrid | null): string {
  const score = row.score.value === null ? "unresolved" : row.score.value.toFixed(1);
  const ci = row.ci ? ` (95% CI ${row.ci.lower.toFixed(1)}–${row.ci.upper.toFixed(1)})` : "";
  const categories = (grid?.categories ?? [])
    .map((category) => {
      const value = grid?.cell(category, row.candidate)?.score.value;
      return `${category} ${value === null || value === undefined ? "—" : value.toFixed(1)}`;
    })
    .join(", ");
  return `${row.candidate}: score ${score}${ci}, cost ${costText(row)}${categories ? `; ${categories}` : ""}`;
}
