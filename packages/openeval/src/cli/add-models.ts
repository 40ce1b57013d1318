// `openeval add-models <run> --model <ref>...`: extend a recorded run with more models (OpenEval's command).
import { addModels } from "../run/index.ts";
import { BENCHMARK_OPTION, defineCommand, parseScope, SCOPE_OPTIONS } from "./command.ts";
import { chooseRun } from "./choose-run.ts";
import { UsageError } from "./errors.ts";
import { executeRun, RUN_OPTIONS } from "./execute-run.ts";

export const addModelsCommand = defineCommand({
  name: "add-models",
  usage: "add-models <run-dir | run-id> --model <provider/model>... [scope flags as for run] [--json] [--benchmark <dir>]",
  summary: "Extend a recorded run with more models: their slots are planned and run, the run's recorded work is reused. Refused while a runner holds the run.",
  options: { ...BENCHMARK_OPTION, ...SCOPE_OPTIONS, concurrency: RUN_OPTIONS.concurrency, json: RUN_OPTIONS.json },
  run: (flags, positionals) => {
    if (positionals.length !== 1) throw new UsageError("add-models takes one run, e.g. `openeval add-models results/<run-id> --model openai/gpt-5`");
    const scope = parseScope(flags);
    if (!scope.models?.length) throw new UsageError("add-models: name the models to add with --model <provider/model> (repeatable)");
    const run = chooseRun(flags.benchmark, positionals[0]);
    return executeRun(flags, scope, (options) => addModels(run, scope.models!, options));
  },
});
