// `openeval rejudge [<eval-run>...] [--repeat N]`: grade recordings again — the named ones, or every failed judgment;
// with --repeat, every judge grades them N more times beside the judgments they keep (self-consistency).
import { defineCommand } from "./commands.ts";
import { executeRun, parsePositiveInteger } from "./execute-run.ts";

export const rejudgeCommand = defineCommand("rejudge", {
  run: (flags, evalRuns) => {
    const repeat = parsePositiveInteger(flags.repeat, "repeat");
    if (repeat !== undefined) {
      return executeRun(flags, {
        rejudge: evalRuns.length > 0 ? evalRuns : "judged",
        repeatJudgments: repeat,
        explicitOnly: true,
      });
    }
    return executeRun(flags, { rejudge: evalRuns.length > 0 ? evalRuns : "failed", explicitOnly: true });
  },
});
