// `openeval report [<run>]`: a recorded run's summary — the table, the verdict, what is not finished — as `run` prints
// it, read from the run's records (readResults) without starting anything: no candidate, judge, control model or
// container. `openeval report --compare <run-a> <run-b>`: what changed from run a to run b (b − a) — per model the two
// scores and the paired difference with its 95% CI, and every criterion that regressed or improved. `baseline` as
// run a compares run b with baseline.json. With --json, stdout is the summary or the comparison only (for CI to post).
// --markdown --against-baseline: the Markdown summary with each model's and eval's change against baseline.json, the
// body of a pull request's comment (`openeval ci comment`).
import { join } from "node:path";
import { resolveRun } from "../records/index.ts";
import { formatBaselineDeltas } from "../report/index.ts";
import { BaselineMissingError, readBaseline } from "../results/index.ts";
import { BASELINE_FILE, readResults, readScoredRun } from "../summary/index.ts";
import { compareRuns, formatComparison } from "../view/index.ts";
import { listFlag } from "./command.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";
import { reportSummary } from "./execute-run.ts";

export const reportCommand = defineCommand("report", {
  async run(flags, positionals) {
    const benchmark = flags.benchmark ?? ".";
    if (flags.compare) {
      const summaryOnly = (["markdown", "against-baseline", "junit", "summary"] as const).filter(
        (name) => flags[name] !== undefined && flags[name] !== false,
      );
      if (summaryOnly.length > 0) throw new UsageError("summaryFlagsWithCompare", { flags: summaryOnly });
      return compare(benchmark, positionals, flags.model as string | undefined, flags.json);
    }
    if (flags.model !== undefined) throw new UsageError("modelWithoutCompare");
    if (positionals.length > 1)
      throw new UsageError("oneRun", { command: "report", given: positionals, or: "--compare <run-a> <run-b>" });
    if (flags.json && flags.markdown) throw new UsageError("jsonAndMarkdown");
    const run = resolveRun(benchmark, positionals[0]);
    const options = flags.benchmark === undefined ? {} : { benchmark: flags.benchmark };
    if (flags["against-baseline"]) {
      if (!flags.markdown && flags.summary === undefined) throw new UsageError("againstBaselineWithoutMarkdown");
      return reportAgainstBaseline(run, options, flags);
    }
    return reportSummary(await readResults(run, options), flags);
  },
});

/** The run's summary with the baseline section after its Markdown; baseline.json is the benchmark's the run records. */
async function reportAgainstBaseline(
  run: string,
  options: { benchmark?: string },
  flags: Record<string, unknown>,
): Promise<number> {
  const scored = await readScoredRun(run, options);
  const file = join(options.benchmark ?? scored.run.benchmarkDirectory, BASELINE_FILE);
  const baseline = await readBaseline(file);
  if (!baseline) throw new BaselineMissingError(file);
  return reportSummary(scored.summary, flags, formatBaselineDeltas(scored.summary, baseline));
}

async function compare(
  benchmark: string,
  positionals: string[],
  model: string | undefined,
  json: boolean,
): Promise<number> {
  if (positionals.length !== 2) throw new UsageError("compareRuns", { given: positionals });
  const [a, b] = positionals as [string, string];
  const models = listFlag("model", model === undefined ? undefined : [model]) ?? [];
  if (models.length > 2) throw new UsageError("compareModels", { models, model: model! });
  const [modelA, modelB] = models;
  const comparison = await compareRuns({
    a: a === "baseline" ? "baseline" : resolveRun(benchmark, a),
    b: resolveRun(benchmark, b),
    modelA,
    modelB,
  });
  console.log(json ? JSON.stringify(comparison, null, 2) : formatComparison(comparison));
  return EXIT.pass;
}
