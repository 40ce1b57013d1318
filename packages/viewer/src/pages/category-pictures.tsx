// The run's pictures beside its per-category table: a radar per model and a category × model heat map when the run
// has criterion categories, and the benchmark scorecard (downloadable as PNG or SVG) for any run with results.
// Models come in the leaderboard's order; the numbers are the overview's, as the tables show them.
import type { LeaderboardRow, RunOverview } from "openeval/viewer-api";
import { categoryGrid } from "../components/category-grid.ts";
import { CategoryHeatmap } from "../components/category-heatmap.tsx";
import { CategoryRadars } from "../components/category-radar.tsx";
import { Scorecard } from "../components/scorecard.tsx";

export function CategoryPictures({ overview, rows }: { overview: RunOverview; rows: readonly LeaderboardRow[] }) {
  const grid =
    overview.categories.length > 0
      ? categoryGrid(
          overview.categories,
          rows.map((row) => row.candidate),
        )
      : null;
  return (
    <>
      {grid ? (
        <section aria-label="category pictures" className="category-pictures">
          <h3>By category</h3>
          <div className="category-plots">
            <CategoryRadars grid={grid} />
            <CategoryHeatmap grid={grid} />
          </div>
        </section>
      ) : null}
      <section aria-label="benchmark scorecard" className="scorecard-section">
        <Scorecard overview={overview} rows={rows} grid={grid} />
      </section>
    </>
  );
}
