// b − a at a glance: a dot for each difference some eval has (its title says how many), the paired mean difference
// with its 95% CI as a whisker, and zero marked — an interval clear of zero is a change the repetitions cannot explain.
import type { ModelPairSummary } from "openeval/viewer-api";
import { linearScale, PlotFrame, XAxis } from "./plot-frame.tsx";

export function DifferencePlot({ pair }: { pair: ModelPairSummary }) {
  const width = 420;
  const height = 92;
  const points = pair.differences;
  const { meanDifference, interval } = pair.paired;
  const extent = Math.max(10, ...points.map((point) => Math.abs(point.points)), Math.abs(interval?.lower ?? 0), Math.abs(interval?.upper ?? 0));
  const x = linearScale([-extent, extent], [16, width - 16], 4);
  const describe = `Paired difference ${meanDifference === null ? "unknown" : meanDifference.toFixed(1)} points${interval ? `, 95% CI ${interval.lower.toFixed(1)} to ${interval.upper.toFixed(1)}` : ""}; evals by difference: ${points.map((point) => `${point.points.toFixed(1)} (${evalCount(point.evals)})`).join(", ") || "none"}`;
  return (
    <PlotFrame testId="difference-plot" title="b − a per eval (points), mean with 95% CI" description={describe} width={width} height={height}>
      <XAxis scale={x} y={66} top={6} format={(value) => `${value > 0 ? "+" : ""}${value}`} />
      <line className="zero-line" x1={x(0)} x2={x(0)} y1={4} y2={66} />
      {/* Three rows of dots, so that close differences stay visible. */}
      {points.map((point, index) => (
        <circle key={point.points} className="rep-dot" cx={x(point.points)} cy={12 + (index % 3) * 8} r={4.5} fill={point.points < 0 ? "#c23a3a" : point.points > 0 ? "#1f8a4c" : "#9aa3b8"} data-value={point.points} data-evals={point.evals}>
          <title>{`${evalCount(point.evals)}: ${point.points.toFixed(1)} points`}</title>
        </circle>
      ))}
      {interval ? (
        <g className="ci-whisker">
          <line x1={x(interval.lower)} x2={x(interval.upper)} y1={44} y2={44} />
          <line x1={x(interval.lower)} x2={x(interval.lower)} y1={39} y2={49} />
          <line x1={x(interval.upper)} x2={x(interval.upper)} y1={39} y2={49} />
        </g>
      ) : null}
      {meanDifference !== null ? <circle className="score-dot" cx={x(meanDifference)} cy={44} r={5.5} /> : null}
    </PlotFrame>
  );
}

function evalCount(evals: number): string {
  return `${evals} eval${evals === 1 ? "" : "s"}`;
}
