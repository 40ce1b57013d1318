// `openeval add-models <run> --model <ref>...`: extend a recorded run with more models (OpenEval's command).
import { addModels } from "../run/index.ts";
import { defineCommand } from "./commands.ts";
import { parseScope } from "./parse-scope.ts";
import { resolveRun } from "../records/index.ts";
import { UsageError } from "./errors.ts";
import { executeRun } from "./execute-run.ts";

export const addModelsCommand = defineCommand("add-models", {
  run: (flags, positionals) => {
    if (positionals.length !== 1) throw new UsageError("runForModels", { command: "add-models" });
    const scope = parseScope(flags);
    if (!scope.models?.length) throw new UsageError("modelsMissing", { command: "add-models", verb: "add" });
    const run = resolveRun(flags.benchmark, positionals[0]);
    return executeRun(flags, scope, (options) => addModels(run, scope.models!, options));
  },
});
