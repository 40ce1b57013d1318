// The run's per-category scores as one grid for the category pictures: categories in the run's order, candidates in
// the order asked (the leaderboard's ranking), one cell per pair, its numbers exactly as the API gives them.
import type { Bounded, RunOverview } from "openeval/viewer-api";

export interface CategoryCell {
  category: string;
  candidate: string;
  /** 0–100 with completion bounds; value null while unresolved. */
  score: Bounded;
  /** 95% CI, 0–100; null with `reason`. */
  interval: { lower: number; upper: number } | null;
  reason: string | null;
}

export interface CategoryGrid {
  categories: string[];
  candidates: string[];
  /** The cell of a category and a candidate; undefined when the summary has no score for the pair. */
  cell(category: string, candidate: string): CategoryCell | undefined;
}

/** How reports name a model in an agent variant (`model [variant]`), as the leaderboard's `candidate` does. */
export function candidateOf(entry: { model: string; variant?: string }): string {
  return entry.variant ? `${entry.model} [${entry.variant}]` : entry.model;
}

/**
 * `ranked`: candidates in the order to show them; one with category scores that it does not name comes after them.
 * @example categoryGrid(overview.categories, ["p/best", "p/next"]).cell("speed", "p/best")?.score.value
 */
export function categoryGrid(categories: RunOverview["categories"], ranked: readonly string[]): CategoryGrid {
  const cells = new Map<string, CategoryCell>();
  const key = (category: string, candidate: string) => `${category}\u0000${candidate}`;
  const seen = new Set<string>();
  for (const entry of categories)
    for (const model of entry.models) {
      const candidate = candidateOf(model);
      seen.add(candidate);
      cells.set(key(entry.category, candidate), {
        category: entry.category,
        candidate,
        score: model.score,
        interval: model.interval,
        reason: model.reason,
      });
    }
  const candidates = [
    ...ranked.filter((candidate) => seen.has(candidate)),
    ...[...seen].filter((candidate) => !ranked.includes(candidate)),
  ];
  return {
    categories: categories.map((entry) => entry.category),
    candidates,
    cell: (category, candidate) => cells.get(key(category, candidate)),
  };
}
