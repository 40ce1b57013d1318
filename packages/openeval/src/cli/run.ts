// `openeval run`: run (or resume) the benchmark, show progress and a per-model table.
import { defineCommand } from "./commands.ts";
import { parseScope } from "./parse-scope.ts";
import { executeRun } from "./execute-run.ts";

export const runCommand = defineCommand("run", {
  run: (flags) => executeRun(flags, parseScope(flags)),
});
