import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/helpers/fixtures.ts";
import { checkScope, planSlots, scoredCriteria } from "../plan/index.ts";
import { BenchmarkInvalidError } from "./errors.ts";
import { loadBenchmark } from "./load-benchmark.ts";

/** Three evals: `speedy` (fast: speed; right: accuracy), `careful` (right: accuracy), `plain` (no categories). */
function files(benchmark: string): Record<string, string> {
  return {
    "benchmark.ts": benchmark,
    "evals/speedy/prompt.md": "Be quick.\n",
    "evals/speedy/judge.md":
      "## Criterion: fast — Fast\nCategories: Speed\nQuick.\n\n## Criterion: right — Right\nCategories: accuracy\nRight.\n",
    "evals/careful/prompt.md": "Be right.\n",
    "evals/careful/judge.ts": `export const criteria = { right: { label: "Right", categories: ["Accuracy"] } };\nexport default () => ({ scores: { right: true } });\n`,
    "evals/plain/prompt.md": "Anything.\n",
    "evals/plain/judge.ts": "export default () => ({ scores: { ok: true } });\n",
  };
}
const BENCHMARK = (extra = "") =>
  `export default { models: ["p/a"], repetitions: 1, judge: { model: "p/judge" }${extra} };\n`;

describe("benchmark.ts categories", () => {
  it("composes the benchmark from the criteria in those categories: other evals and criteria drop out", async () => {
    const benchmark = await loadBenchmark(await writeTree(files(BENCHMARK(`, categories: ["SPEED "]`))));
    expect(benchmark.categories).toEqual(["speed"]);
    expect(
      benchmark.evals.map((evaluation) => [evaluation.id, evaluation.criteria.map((criterion) => criterion.id)]),
    ).toEqual([["speedy", ["fast"]]]);
    const everything = await loadBenchmark(await writeTree(files(BENCHMARK())));
    expect(everything.categories).toBeNull();
    expect(everything.evals.map((evaluation) => evaluation.id)).toEqual(["careful", "plain", "speedy"]);
  });

  it("refuses a category no criterion has, and a malformed one, naming it", async () => {
    const problems = async (extra: string) =>
      loadBenchmark(await writeTree(files(BENCHMARK(extra)))).then(
        () => [],
        (error: unknown) =>
          (error as BenchmarkInvalidError).problems.map((problem) => `${problem.file}: ${problem.message}`),
      );
    expect(await problems(`, categories: ["speed", "typo"]`)).toEqual([
      'benchmark.ts: categories: "typo" matches no criterion; the categories criteria have are: accuracy, speed',
    ]);
    expect(await problems(`, categories: ["no*pe"]`)).toEqual([
      expect.stringContaining(
        'benchmark.ts: categories: category "no*pe" is not allowed; a category is 1–64 characters',
      ),
    ]);
    expect(await problems(`, categories: []`)).toEqual([
      expect.stringContaining("list at least one category, or remove categories"),
    ]);
  });
});

describe("--only-category", () => {
  it("scopes the plan to evals with a criterion in the category (case-insensitive), deferring the rest", async () => {
    const benchmark = await loadBenchmark(await writeTree(files(BENCHMARK())));
    const plan = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { onlyCategories: ["Accuracy"] });
    expect(plan.slots.map((slot) => `${slot.evalId}:${slot.action}`)).toEqual([
      "careful:candidate",
      "plain:deferred",
      "speedy:candidate",
    ]);
    expect(scoredCriteria(benchmark.evals[2]!, { onlyCategories: ["speed"] }).map((criterion) => criterion.id)).toEqual(
      ["fast"],
    );
  });

  it("names a category that matches no criterion, listing the valid ones", async () => {
    const benchmark = await loadBenchmark(await writeTree(files(BENCHMARK())));
    expect(() => checkScope(benchmark, { onlyCategories: ["sped"] })).toThrow(
      '--only-category "sped" matches no criterion category; the valid values are: accuracy, speed',
    );
  });
});
