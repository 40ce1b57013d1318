// `openeval retry <eval-run>...`: run failed candidates again. Failed work is never retried silently.
import { defineCommand } from "./commands.ts";
import { UsageError } from "./errors.ts";
import { executeRun } from "./execute-run.ts";

export const retryCommand = defineCommand("retry", {
  run: (flags, evalRuns) => {
    if (evalRuns.length === 0) throw new UsageError("retryWithoutEvalRuns");
    return executeRun(flags, { retry: evalRuns, explicitOnly: true });
  },
});
