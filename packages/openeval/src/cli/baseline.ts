// `openeval baseline set <run> [--accept-failing]` and `openeval baseline show`: the accepted reference scores
// (baseline.json beside benchmark.ts) that the regression contributor compares against.
import { join } from "node:path";
import { loadBenchmark } from "../load/index.ts";
import { resolveRun } from "../records/index.ts";
import { readBaseline, writeBaseline } from "../results/index.ts";
import { BASELINE_FILE, readResults } from "../summary/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

export const baselineCommand = defineCommand("baseline", {
  async run(flags, [action, runDirectory]) {
    const benchmark = await loadBenchmark(flags.benchmark as string);
    const file = join(benchmark.directory, BASELINE_FILE);
    if (action === "show") {
      const baseline = await readBaseline(file);
      if (!baseline) {
        console.log(`No baseline at ${file}; set one with openeval baseline set <run-dir>`);
        return EXIT.pass;
      }
      console.log(
        flags.json
          ? JSON.stringify(baseline, null, 2)
          : `Baseline from run ${baseline.runId} (${baseline.createdAt}): ${baseline.entries.length} (eval, model) entries, verdict ${baseline.verdict}\n${file}`,
      );
      return EXIT.pass;
    }
    if (action !== "set" || !runDirectory) throw new UsageError("baselineAction");
    const variant = flags.variant as string | undefined;
    const arms = ["current", ...benchmark.variants.map((definition) => definition.name)];
    if (variant !== undefined && !arms.includes(variant)) throw new UsageError("variantUnknown", { variant, arms });
    // The arm's own verdict decides whether it may be promoted: a named variant blocks.
    const results = await readResults(resolveRun(benchmark.directory, runDirectory), {
      benchmark,
      ...(variant && variant !== "current" ? { variants: [variant] } : {}),
    });
    await writeBaseline(file, {
      runId: results.runId,
      createdAt: new Date().toISOString(),
      verdict: results.verdict,
      summaries: results.models,
      fingerprints: results.fingerprints,
      outOfScope: results.outOfScope,
      acceptFailing: flags["accept-failing"] === true,
      ...(variant !== undefined && variant !== "current" ? { variant } : {}),
    });
    console.log(`Baseline set from run ${results.runId}${variant ? ` (variant ${variant})` : ""}: ${file}`);
    return EXIT.pass;
  },
});
