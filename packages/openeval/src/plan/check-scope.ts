// The --only-* scope must name what exists: a typo that matches nothing would otherwise plan nothing,
// print an empty table and pass a CI job forever. Each value is checked and the valid ones are listed.
import { OpenEvalError } from "../util/errors.ts";
import { categoryKey, CURRENT_VARIANT_NAME, type BenchmarkDefinition } from "../load/index.ts";
import type { RunModels } from "../records/index.ts";
import { plannedModels, plannedVariants, type PlanScope } from "./plan-benchmark.ts";

export class ScopeInvalidError extends OpenEvalError {
  readonly code = "OE_SCOPE_INVALID";
  /** One line a problem, each naming the value and what is valid. */
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
  }
}

/**
 * Throws ScopeInvalidError naming every --only-eval / --only-case / --only-category / --only-model / --only-repetition / --variant / --only-variant value that matches nothing.
 * @example checkScope(benchmark, { onlyEvals: ["typo"] }) // throws: --only-eval "typo" matches no eval; the evals are: …
 */
export function checkScope(benchmark: BenchmarkDefinition, scope: PlanScope, runModels?: RunModels): void {
  const models = plannedModels(benchmark, scope, runModels);
  const variantNames = [CURRENT_VARIANT_NAME, ...benchmark.variants.map((variant) => variant.name)];
  const repetitions = Array.from({ length: benchmark.settings.repetitions }, (_, index) => index + 1);
  const problems = [
    ...unmatched(
      "--only-eval",
      scope.onlyEvals,
      benchmark.evals.map((evaluation) => evaluation.id),
      "eval",
    ),
    ...unmatched("--only-case", scope.onlyCases, casesOf(benchmark, scope.onlyEvals), "case"),
    ...unmatched(
      "--only-category",
      scope.onlyCategories?.map(categoryKey),
      categoriesOf(benchmark),
      "criterion category",
    ),
    ...unmatched(
      "--only-model",
      scope.onlyModels,
      models,
      "model of the run (benchmark.ts's, the run's and --model's)",
    ),
    ...unmatched("--only-repetition", scope.onlyRepetitions, repetitions, "repetition"),
    ...unmatched("--variant", scope.variants, variantNames.slice(1), "variant of benchmark.ts"),
    ...unmatched(
      "--only-variant",
      scope.onlyVariants,
      plannedVariants(benchmark, scope).map((variant) => variant.name),
      scope.variants ? "variant given with --variant (or current)" : "variant (current or one of benchmark.ts)",
    ),
  ];
  if (problems.length > 0) throw new ScopeInvalidError(problems);
}

/** The case ids of the evals in scope (every eval without --only-eval), each once, in order. */
function casesOf(benchmark: BenchmarkDefinition, onlyEvals: readonly string[] | undefined): string[] {
  const evals = benchmark.evals.filter((evaluation) => !onlyEvals || onlyEvals.includes(evaluation.id));
  return [...new Set(evals.flatMap((evaluation) => evaluation.cases?.map((item) => item.id) ?? []))];
}

/** The categories of the criteria the benchmark is made of, sorted. */
function categoriesOf(benchmark: BenchmarkDefinition): string[] {
  return [
    ...new Set(
      benchmark.evals.flatMap((evaluation) => evaluation.criteria.flatMap((criterion) => criterion.categories)),
    ),
  ].sort();
}

function unmatched<Value extends string | number>(
  flag: string,
  given: readonly Value[] | undefined,
  valid: readonly Value[],
  noun: string,
): string[] {
  const missing = (given ?? []).filter((value) => !valid.includes(value));
  return missing.map(
    (value) => `${flag} "${value}" matches no ${noun}; the valid values are: ${valid.join(", ") || "(none)"}`,
  );
}
