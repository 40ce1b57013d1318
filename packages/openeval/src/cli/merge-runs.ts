// `openeval merge-runs <to> <from>`: copy one run's finalized work into another run of the same benchmark.
import { mergeRuns } from "../run/index.ts";
import { defineCommand } from "./commands.ts";
import { resolveRun } from "../records/index.ts";
import { EXIT, UsageError } from "./errors.ts";

export const mergeRunsCommand = defineCommand("merge-runs", {
  async run(flags, positionals) {
    if (positionals.length !== 2) throw new UsageError("mergeRunsPair");
    const [to, from] = positionals.map((run) => resolveRun(flags.benchmark, run));
    const result = await mergeRuns(to!, from!);
    if (flags.json) {
      console.log(JSON.stringify(result));
      return EXIT.pass;
    }
    console.log(
      `Merged ${result.from} into ${result.directory}: ${result.copiedSlots.length} slot(s) copied (${result.evalRuns} eval runs, ${result.judgeRuns} judge runs).`,
    );
    const differing = result.keptSlots.filter((slot) => !slot.sameInputs);
    if (result.keptSlots.length > 0)
      console.log(
        `Kept the target's work for ${result.keptSlots.length} slot(s) both runs hold${differing.length > 0 ? `; made from other inputs in ${from}: ${differing.map((slot) => slot.slot).join(", ")}` : ""}.`,
      );
    return EXIT.pass;
  },
});
