// `openeval verify [<run>]`: checks a whole run against its hashes; exits non-zero naming what changed.
import { verifyRun } from "../summary/index.ts";
import { defineCommand } from "./commands.ts";
import { resolveRun } from "../records/index.ts";
import { EXIT, UsageError } from "./errors.ts";

export const verifyCommand = defineCommand("verify", {
  async run(flags, positionals) {
    if (positionals.length > 1) throw new UsageError("oneRun", { command: "verify", given: positionals });
    const result = await verifyRun(resolveRun(flags.benchmark as string, positionals[0]));
    if (flags.json) console.log(JSON.stringify(result));
    else if (result.problems.length === 0) {
      console.log(
        `Verified ${result.directory}: ${result.evalRuns} eval runs, ${result.judgeRuns} judge runs, ${result.reviews} reviews, ${result.files} recording files${result.invariantEvaluations > 0 ? `, ${result.invariantEvaluations} invariant evaluations` : ""}; nothing changed.`,
      );
    } else {
      console.error(
        `${result.problems.length} integrity error${result.problems.length === 1 ? "" : "s"} in ${result.directory}:`,
      );
      for (const problem of result.problems) console.error(`  ${problem.message}`);
    }
    // 1, like a failed verdict: the run was read fine, and it does not pass the check.
    return result.problems.length === 0 ? EXIT.pass : EXIT.verdictFail;
  },
});
