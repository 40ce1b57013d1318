// `openeval remove-models <run> --model <ref>...`: retire models from a run's scores, keeping their evidence.
import { removeModels } from "../run/index.ts";
import { listFlag } from "./command.ts";
import { defineCommand } from "./commands.ts";
import { resolveRun } from "../records/index.ts";
import { EXIT, UsageError } from "./errors.ts";

export const removeModelsCommand = defineCommand("remove-models", {
  async run(flags, positionals) {
    if (positionals.length !== 1) throw new UsageError("runForModels", { command: "remove-models" });
    const models = listFlag("model", flags.model) ?? [];
    if (models.length === 0) throw new UsageError("modelsMissing", { command: "remove-models", verb: "retire" });
    const result = await removeModels(resolveRun(flags.benchmark, positionals[0]), models);
    if (flags.json) console.log(JSON.stringify(result));
    else
      console.log(
        `Retired ${result.removed.join(", ")} from ${result.directory} (${result.retiredSlots} recorded slot(s) kept on disk). The run's models: ${result.models.join(", ")}. \`openeval add-models\` brings them back.`,
      );
    return EXIT.pass;
  },
});
