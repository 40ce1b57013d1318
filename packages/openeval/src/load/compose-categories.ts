// benchmark.ts `categories` (OpenEval 0.5): the benchmark is made of the criteria in those categories. Evals with no
// such criterion drop out; the others keep only those criteria as the ones they are scored by (their judges still
// grade every criterion, so changing the selection never rejudges). A category no criterion has is an error.
import { categoryKeys, inCategories } from "./categories.ts";
import type { EvalDefinition } from "./load-eval.ts";
import type { LoadProblem } from "./errors.ts";

/** The evals that make up the benchmark, each with the criteria it is scored by; every eval when `categories` is absent. */
export function composeByCategories(
  categories: readonly string[] | undefined,
  evals: readonly EvalDefinition[],
  problems: LoadProblem[],
): { keys: string[] | null; evals: EvalDefinition[] } {
  if (categories === undefined) return { keys: null, evals: [...evals] };
  let keys: string[];
  try {
    keys = categoryKeys(categories, "categories");
  } catch (error) {
    problems.push({ file: "benchmark.ts", message: (error as Error).message });
    return { keys: null, evals: [...evals] };
  }
  const known = [
    ...new Set(evals.flatMap((evaluation) => evaluation.criteria.flatMap((criterion) => criterion.categories))),
  ].sort();
  for (const key of keys.filter((key) => !known.includes(key))) {
    problems.push({
      file: "benchmark.ts",
      message: `categories: "${key}" matches no criterion; the categories criteria have are: ${known.join(", ") || "(none: add a Categories line under a judge.md criterion)"}`,
    });
  }
  const composed = evals
    .map((evaluation) => ({
      ...evaluation,
      criteria: evaluation.criteria.filter((criterion) => inCategories(criterion.categories, keys)),
    }))
    .filter((evaluation) => evaluation.criteria.length > 0);
  return { keys, evals: composed };
}
