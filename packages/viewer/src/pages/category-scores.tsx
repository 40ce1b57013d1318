// Per-category scores on the run page (OpenEval 0.5 criterion categories): one row per category and model, the score
// over that category's criteria with completion bounds and 95% CI, as the run summary computes them.
import type { RunOverview } from "openeval/viewer-api";
import { BoundsAndIntervalHeads, Dash } from "../components/common.tsx";
import { formatScore } from "../format.ts";

export function CategoryScores({ overview }: { overview: RunOverview }) {
  if (overview.categories.length === 0) return null;
  return (
    <table className="table" data-testid="category-scores">
      <thead>
        <tr>
          <th>Category</th>
          <th>Model</th>
          <th className="number">Score</th>
          <BoundsAndIntervalHeads />
          <th className="number">Criteria</th>
        </tr>
      </thead>
      <tbody>
        {overview.categories.flatMap((entry) =>
          entry.models.map((model) => (
            <tr
              key={`${entry.category}\u0000${model.model}\u0000${model.variant ?? ""}`}
              data-category={entry.category}
              data-model={model.model}
            >
              <td>{entry.category}</td>
              <td>{model.variant ? `${model.model} [${model.variant}]` : model.model}</td>
              <td className="number">{formatScore(model.score.value)}</td>
              <td className="number">{`${model.score.lower.toFixed(1)}–${model.score.upper.toFixed(1)}`}</td>
              <td className="number" title={model.reason ?? undefined}>
                {model.interval ? `${model.interval.lower.toFixed(1)}–${model.interval.upper.toFixed(1)}` : <Dash />}
              </td>
              <td className="number">{`${entry.criteria} in ${entry.evals} eval${entry.evals === 1 ? "" : "s"}`}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
