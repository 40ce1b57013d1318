// `openeval report [<run>]`: a recorded run's summary — the table, the verdict, what is not finished — as `run` prints
// it, read from the run's records (readResults) without starting anything: no candidate, judge, control model or
// container. `openeval report --compare <run-a> <run-b>`: what changed from run a to run b (b − a) — per model the two
// scores and the paired difference with its 95% CI, and every criterion that regressed or improved. `baseline` as
// run a compares run b with baseline.json. With --json, stdout is the summary or the comparison only (for CI to post).
import { readResults } from "../run/index.ts";
import { CompareError, compareRuns, formatComparison } from "../view/index.ts";
import { chooseRun } from "./choose-run.ts";
import { defineCommand } from "./command.ts";
import { EXIT, UsageError } from "./errors.ts";
import { reportSummary } from "./execute-run.ts";

export const reportCommand = defineCommand({
  name: "report",
  usage: "report [<run-dir | run-id>] [--json | --markdown] [--junit <file>] [--summary <file>] [--benchmark <dir>] | report --compare <run-a | baseline> <run-b> [--model <a>[,<b>]] [--json] [--benchmark <dir>]",
  summary:
    "Print a recorded run's summary (default: the latest run) as `run` prints it, running nothing; exits as `run` would (0 pass, 1 fail, 3 incomplete). " +
    "--markdown prints the Markdown summary instead; --junit/--summary write JUnit XML/Markdown files as with run. " +
    "--benchmark: whose results/ the run is in (default .), and, named, the benchmark its summary is read with (default: the folder the run records). " +
    "--compare: two runs (or baseline.json with a run, or two models or variants — --model 'p/m,p/m [terse]'): scores, paired difference with 95% CI, regressions and improvements.",
  options: {
    // No default: named, it is also the benchmark a run's summary is read with (a run folder copied from CI records a
    // folder that may not exist here); else that is the folder the run records, as in the viewer.
    benchmark: { type: "string" },
    compare: { type: "boolean", default: false },
    model: { type: "string" },
    json: { type: "boolean", default: false },
    markdown: { type: "boolean", default: false },
    junit: { type: "string" },
    summary: { type: "string" },
  },
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
    const run = chooseRun(benchmark, positionals[0]);
    return reportSummary(await readResults(run, flags.benchmark === undefined ? {} : { benchmark: flags.benchmark }), flags);
  },
});

async function compare(benchmark: string, positionals: string[], model: string | undefined, json: boolean): Promise<number> {
  if (positionals.length !== 2) throw new UsageError(`--compare takes two runs, a and b (a may be \`baseline\`); got ${positionals.length}: ${positionals.join(" ") || "none"}`);
  const [a, b] = positionals as [string, string];
  const [modelA, modelB] = model?.split(",") ?? [];
  try {
    const comparison = await compareRuns({ a: a === "baseline" ? "baseline" : chooseRun(benchmark, a), b: chooseRun(benchmark, b), modelA, modelB });
    console.log(json ? JSON.stringify(comparison, null, 2) : formatComparison(comparison));
    return EXIT.pass;
  } catch (error) {
    if (error instanceof CompareError) throw new UsageError(error.message);
    throw error;
  }
}
