// `openeval rejudge [<eval-run>...]`: grade recordings again — the named ones, or every failed judgment.
import { defineCommand } from "./commands.ts";
import { executeRun } from "./execute-run.ts";

export const rejudgeCommand = defineCommand("rejudge", {
  run: (flags, evalRuns) =>
    executeRun(flags, { rejudge: evalRuns.length > 0 ? evalRuns : "failed", explicitOnly: true }),
});
