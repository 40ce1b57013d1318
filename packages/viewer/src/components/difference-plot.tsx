// b − a at a glance: a dot for each difference some eval has, named by its evals and value, the paired mean difference
// with its 95% CI as a whisker, and zero marked — an interval clear of zero is a change the repetitions cannot explain.
import { type ModelPairSummary, signed } from "openeval/viewer-api";
import {
  groupOverlapping,
  lineHeight,
  markBox,
  measureText,
  placeLabels,
  type Box,
  type LabelLayout,
} from "./label-layout.ts";
import { PlacedText } from "./leaderboard-plots.tsx";
import { linearScale, PlotFrame, useFittedWidth, XAxis } from "./plot-frame.tsx";

const MEAN_Y = 24;
const DOTS_Y = 62;
const DOT = 4.5;
/** Rows of labels under the dots at most; a difference beyond them is named in the note under the plot. */
const MAX_LABEL_ROWS = 6;

export function DifferencePlot({ pair }: { pair: ModelPairSummary }) {
  const { frameRef, width } = useFittedWidth(420, 300);
  const points = pair.differences;
  const { meanDifference, interval } = pair.paired;
  const extent = Math.max(
    10,
    ...points.map((point) => Math.abs(point.points)),
    Math.abs(interval?.lower ?? 0),
    Math.abs(interval?.upper ?? 0),
  );
  const titles = Math.ceil(measureText("per eval")) + 8;
  const x = linearScale([-extent, extent], [titles + 22, width - 22], 4);
  // Three rows of dots, so that close differences stay visible.
  const dots = points.map((point, index) => ({ ...point, x: x(point.points), y: DOTS_Y + (index % 3) * 7, r: DOT }));
  const whisker: Box | null = interval
    ? { x: x(interval.lower), y: MEAN_Y - 6, width: x(interval.upper) - x(interval.lower), height: 12 }
    : null;
  const marks = [
    ...dots.map((dot) => markBox(dot.x, dot.y, DOT + 1)),
    ...(whisker ? [whisker] : []),
    ...(meanDifference !== null ? [markBox(x(meanDifference), MEAN_Y, 6.5)] : []),
  ];
  const meanLabel = placeLabels(
    meanDifference === null
      ? []
      : [{ key: "mean", lines: [describeMean(pair)], anchor: { x: x(meanDifference), y: MEAN_Y, r: 6 } }],
    {
      bounds: { x: titles + 4, y: 2, width: width - titles - 6, height: 40 },
      obstacles: marks,
    },
  );
  const evalLabels = layEvalLabels(dots, { x: titles + 4, width: width - titles - 6 }, [
    ...marks,
    ...meanLabel.placed.map((label) => label.box),
  ]);
  const axisY = evalLabels.bottom + 6;
  const described = `Paired difference ${meanDifference === null ? "unknown" : meanDifference.toFixed(1)} points${interval ? `, 95% CI ${interval.lower.toFixed(1)} to ${interval.upper.toFixed(1)}` : ""}; evals by difference: ${points.map((point) => `${point.points.toFixed(1)} (${nameEvals(point)})`).join(", ") || "none"}`;
  const unnamed = evalLabels.layout.unplaced.reduce((sum, label) => sum + label.lines.length, 0);
  return (
    <PlotFrame
      testId="difference-plot"
      title="b − a per eval (points), mean with 95% CI"
      description={described}
      width={width}
      height={axisY + 38}
      frameRef={frameRef}
      note={
        unnamed > 0
          ? `${unnamed} more difference${unnamed === 1 ? "" : "s"} not named here for lack of room: the list below has every eval.`
          : undefined
      }
    >
      <XAxis
        scale={x}
        y={axisY}
        top={4}
        format={(value) => `${value > 0 ? "+" : ""}${value}`}
        label="b − a, points (0–100 scale)"
      />
      <line className="zero-line" x1={x(0)} x2={x(0)} y1={4} y2={axisY} />
      <text className="row-title" x={titles} y={MEAN_Y + 4} textAnchor="end">
        mean
      </text>
      <text className="row-title" x={titles} y={DOTS_Y + 11} textAnchor="end">
        per eval
      </text>
      {dots.map((dot) => (
        <circle
          key={dot.points}
          className="rep-dot"
          cx={dot.x}
          cy={dot.y}
          r={DOT}
          fill={dot.points < 0 ? "#c23a3a" : dot.points > 0 ? "#1f8a4c" : "#9aa3b8"}
          data-value={dot.points}
          data-evals={dot.evals}
        >
          <title>{`${nameEvals(dot)}: ${signed(dot.points)} points`}</title>
        </circle>
      ))}
      {interval ? (
        <g className="ci-whisker">
          <line x1={x(interval.lower)} x2={x(interval.upper)} y1={MEAN_Y} y2={MEAN_Y} />
          <line x1={x(interval.lower)} x2={x(interval.lower)} y1={MEAN_Y - 5} y2={MEAN_Y + 5} />
          <line x1={x(interval.upper)} x2={x(interval.upper)} y1={MEAN_Y - 5} y2={MEAN_Y + 5} />
        </g>
      ) : null}
      {meanDifference !== null ? <circle className="score-dot" cx={x(meanDifference)} cy={MEAN_Y} r={5.5} /> : null}
      {[...meanLabel.placed, ...evalLabels.layout.placed].map((label) => (
        <PlacedText key={label.key} label={label} />
      ))}
    </PlotFrame>
  );
}

/** The eval labels in as few rows under the dots as hold them all, up to MAX_LABEL_ROWS. */
function layEvalLabels(
  dots: readonly (ModelPairSummary["differences"][number] & { x: number; y: number; r: number })[],
  columns: { x: number; width: number },
  obstacles: Box[],
): { layout: LabelLayout; bottom: number } {
  // Dots drawn over each other share a label, a line each.
  const requests = groupOverlapping(dots).map((group) => ({
    key: `eval:${group.marks[0]!.points}`,
    lines: group.marks.map((dot) => `${nameEvals(dot)} ${signed(dot.points)}`),
    anchor: group.anchor,
  }));
  const top = DOTS_Y - 16;
  for (let rows = 1; ; rows++) {
    const bottom = DOTS_Y + 20 + rows * lineHeight();
    const layout = placeLabels(requests, { bounds: { ...columns, y: top, height: bottom - top }, obstacles });
    if (layout.unplaced.length === 0 || rows === MAX_LABEL_ROWS) return { layout, bottom };
  }
}

function describeMean(pair: ModelPairSummary): string {
  const { meanDifference, interval, reason } = pair.paired;
  return `mean ${signed(meanDifference!)}${interval ? ` · 95% CI ${signed(interval.lower)} to ${signed(interval.upper)}` : reason ? ` · no CI: ${reason}` : ""}`;
}

/** The evals that have a difference: their names, and how many more. */
function nameEvals(point: ModelPairSummary["differences"][number]): string {
  const more = point.evals - point.evalIds.length;
  return `${point.evalIds.join(", ")}${more > 0 ? ` +${more} more` : ""}`;
}
