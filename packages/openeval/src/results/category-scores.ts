// Per-category scores (OpenEval 0.5's category views): each category rescored as its own benchmark — only the
// criteria in it, equal weight inside each eval, then equal eval weight over the evals that have one — with the same
// completion bounds (aggregate.ts) and 95% CI (statistics.ts) as the model scores.
import { aggregateScores, type Bounded, type SlotOutcome } from "./aggregate.ts";
import { candidateName, type CandidateRef } from "../records/index.ts";
import { scoreIntervals } from "./statistics.ts";
import type { BootstrapOptions, Interval } from "./bootstrap.ts";

export interface CategoryModelScore extends CandidateRef {
  /** 0–100 over the category's criteria. */
  score: Bounded;
  /** 95% interval, or null with `reason`. */
  interval: Interval | null;
  reason: string | null;
}

export interface CategoryScore {
  category: string;
  /** How many (eval, criterion) pairs and evals measure it. */
  criteria: number;
  evals: number;
  models: CategoryModelScore[];
}

/**
 * `criteria`: eval id → the criterion ids scored; `categories`: eval id → criterion id → its category keys. One entry
 * per category in first-seen order; empty when no scored criterion has a category.
 * @example scoreCategories(outcomes, { a: ["x", "y"] }, { a: { x: ["speed"] } }) // [{ category: "speed", criteria: 1, evals: 1, models: [...] }]
 */
export function scoreCategories(
  outcomes: readonly SlotOutcome[],
  criteria: Readonly<Record<string, readonly string[]>>,
  categories: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>,
  options: BootstrapOptions = {},
): CategoryScore[] {
  const keys = [
    ...new Set(
      Object.entries(criteria).flatMap(([evalId, ids]) => ids.flatMap((id) => categories[evalId]?.[id] ?? [])),
    ),
  ];
  return keys.map((category) => {
    const selected = Object.fromEntries(
      Object.entries(criteria)
        .map(([evalId, ids]) => [evalId, ids.filter((id) => categories[evalId]?.[id]?.includes(category))] as const)
        .filter(([, ids]) => ids.length > 0),
    );
    const mine = outcomes.filter((outcome) => outcome.evalId in selected);
    const intervals = new Map(scoreIntervals(mine, selected, options).map((entry) => [candidateName(entry), entry]));
    const models = aggregateScores(mine, selected).map(({ model, variant, score }) => {
      const interval = intervals.get(candidateName({ model, variant }));
      return {
        model,
        ...(variant === undefined ? {} : { variant }),
        score,
        interval: interval?.interval ?? null,
        reason: interval?.reason ?? null,
      };
    });
    return { category, criteria: Object.values(selected).flat().length, evals: Object.keys(selected).length, models };
  });
}
