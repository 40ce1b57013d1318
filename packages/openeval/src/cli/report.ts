// `openeval report [<run>]`: a recorded run's summary — the table, the verdict, what is not finished — as `run` prints
// it, read from the run's records (readResults) without starting anything: no candidate, judge, control model or
// container. `openeval report --compare <run-a> <run-b>`: what changed from run a to run b (b − a) — per model the two
// scores and the paired difference with its 95% CI, and every criterion that regressed or improved. `baseline` as
// run a compares run b with baseline.json. With --json, stdout is the summary or the comparison only (for CI to post).
import { readResults } from "../summary/index.ts";
import { CompareError, compareRuns, formatComparison } from "../view/index.ts";
import { resolveRun } from "../records/index.ts";
import { listFlag } from "./command.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";
import { reportSummary } from "./execute-run.ts";

export const reportCommand = defineCommand("report", {
  async run(flags, positionals) {
    const benchmark = flags.benchmark ?? ".";
    if (flags.compare) {
      const summaryOnly = (["markdown", "junit", "summary"] as const).filter((name) => flags[name] !== undefined && flags[name] !== false);
      if (summaryOnly.length > 0) throw new UsageError(`${summaryOnly.map((name) => `--${name}`).join(", ")} ${summaryOnly.length === 1 ? "is" : "are"} for a run's summary, not --compare; drop ${summaryOnly.length === 1 ? "it" : "them"}, or drop --compare`);
      return compare(benchmark, positionals, flags.model as string | undefined, flags.json);
    }
    if (flags.model !== undefined) throw new UsageError("--model picks the two sides of --compare; a run's summary shows every model");
    if (positionals.length > 1) throw new UsageError(`report takes one run (or --compare <run-a> <run-b>); got ${positionals.length}: ${positionals.join(" ")}`);
    if (flags.json && flags.markdown) throw new UsageError("--json and --markdown each choose what stdout holds; pass one of them");
    const run = resolveRun(benchmark, positionals[0]);
    return reportSummary(await readResults(run, flags.benchmark === undefined ? {} : { benchmark: flags.benchmark }), flags);
  },
});

async function compare(benchmark: string, positionals: string[], model: string | undefined, json: boolean): Promise<number> {
  if (positionals.length !== 2) throw new UsageError(`--compare takes two runs, a and b (a may be \`baseline\`); got ${positionals.length}: ${positionals.join(" ") || "none"}`);
  const [a, b] = positionals as [string, string];
  const models = listFlag("model", model === undefined ? undefined : [model]) ?? [];
  if (models.length > 2) throw new UsageError(`--model with --compare takes one model, or one per side ("a,b"); got ${models.length}: ${model}`);
  const [modelA, modelB] = models;
  try {
    const comparison = await compareRuns({ a: a === "baseline" ? "baseline" : resolveRun(benchmark, a), b: resolveRun(benchmark, b), modelA, modelB });
    console.log(json ? JSON.stringify(comparison, null, 2) : formatComparison(comparison));
    return EXIT.pass;
  } catch (error) {
    if (error instanceof CompareError) throw new UsageError(error.message);
    throw error;
  }
}
