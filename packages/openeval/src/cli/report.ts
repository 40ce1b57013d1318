// `openeval report --compare <run-a> <run-b>`: what changed from run a to run b (b − a) — per model the two scores
// and the paired difference with its 95% CI, and every criterion that regressed or improved. `baseline` as run a
// compares run b with baseline.json. With --json, stdout is the comparison only (for CI to post).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { resultsRoot, STORE_FILE } from "../records/index.ts";
import { CompareError, compareRuns, formatComparison } from "../view/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

export const reportCommand = defineCommand("report", {
  async run(flags, positionals) {
    if (!flags.compare) throw new UsageError("report needs --compare <run-a | baseline> <run-b> (the only report so far)");
    if (positionals.length !== 2) throw new UsageError(`--compare takes two runs, a and b (a may be \`baseline\`); got ${positionals.length}: ${positionals.join(" ") || "none"}`);
    const [a, b] = positionals as [string, string];
    const [modelA, modelB] = (flags.model as string | undefined)?.split(",") ?? [];
    try {
      const comparison = await compareRuns({ a: a === "baseline" ? "baseline" : findRun(flags.benchmark as string, a), b: findRun(flags.benchmark as string, b), modelA, modelB });
      console.log(flags.json ? JSON.stringify(comparison, null, 2) : formatComparison(comparison));
      return EXIT.pass;
    } catch (error) {
      if (error instanceof CompareError) throw new UsageError(error.message);
      throw error;
    }
  },
});

/** A run directory, or a run id under the benchmark's results/. */
function findRun(benchmark: string, run: string): string {
  for (const candidate of [resolve(run), join(resultsRoot(resolve(benchmark)), run)]) {
    if (existsSync(join(candidate, STORE_FILE))) return candidate;
  }
  throw new UsageError(`${run} is not a run: pass a results/<run-id> folder or a run id under ${resultsRoot(resolve(benchmark))}`);
}
