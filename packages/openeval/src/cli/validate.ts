// `openeval validate`: load and check every eval without running anything (no model, no judge code).
import { BenchmarkInvalidError, earlyStopPolicy, loadBenchmark, type EvalSettings } from "../load/index.ts";
import { homeEngine, prebuiltImageProblems } from "../run/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT } from "./errors.ts";

export const validateCommand = defineCommand("validate", {
  async run(flags) {
    const benchmark = await loadBenchmark(flags.benchmark as string);
    const { settings } = benchmark;
    // The one check that asks an engine, and only for tasks that name a prebuilt image.
    const missing = await prebuiltImageProblems(benchmark.evals, homeEngine(settings));
    if (missing.length > 0) throw new BenchmarkInvalidError(missing);
    console.log(`Benchmark ${benchmark.name} (${benchmark.directory})`);
    console.log(`  models: ${settings.models.join(", ")}; repetitions: ${settings.repetitions}`);
    if (benchmark.variants.length > 0)
      console.log(`  variants: current, ${benchmark.variants.map((variant) => variant.name).join(", ")}`);
    if (benchmark.categories)
      console.log(`  composed from the criteria in categories: ${benchmark.categories.join(", ")}`);
    console.log(`  ${benchmark.evals.length} eval${benchmark.evals.length === 1 ? "" : "s"}:`);
    for (const evaluation of benchmark.evals) {
      if (evaluation.harbor) {
        console.log(`  - ${evaluation.id}: ${evaluation.harbor.mapped.join("; ")}`);
        continue;
      }
      const kinds = [evaluation.rubric && "judge.md", evaluation.code && "judge.ts"].filter(Boolean).join(" + ");
      const criteria = evaluation.criteria.map(
        (criterion) => `${criterion.id} (${[criterion.source, ...criterion.categories].join("; ")})`,
      );
      if (evaluation.code && !evaluation.code.criteria) criteria.push("criteria chosen by judge.ts at run time");
      const controls = Object.keys(evaluation.controls);
      const policy = earlyStopPolicy(evaluation.settings.earlyStop);
      const details = [
        `${kinds}`,
        `criteria: ${criteria.join(", ")}`,
        ...(controls.length > 0 ? [`controls: ${controls.join(", ")}`] : []),
        ...(evaluation.cases ? [`${evaluation.cases.length} case${evaluation.cases.length === 1 ? "" : "s"}`] : []),
        ...(evaluation.environment ? ["environment/: its own image (a container, whatever the model)"] : []),
        ...(policy
          ? [
              `earlyStop: checks ≥ ${policy.minIntervalMs} ms apart, at most ${policy.maxChecks}, judge spend ≤ $${policy.maxCostUSD}${onlyModelsOf(evaluation.settings.earlyStop)}`,
            ]
          : []),
      ];
      console.log(`  - ${evaluation.id}: ${details.join("; ")}`);
    }
    console.log("OK: the benchmark is valid.");
    return EXIT.pass;
  },
});

function onlyModelsOf(setting: EvalSettings["earlyStop"]): string {
  return typeof setting === "object" && setting.onlyModels ? `, only for ${setting.onlyModels.join(", ")}` : "";
}
