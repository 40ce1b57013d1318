// `openeval snapshot <run> <name>`: freeze the run's active scores to maintenance/snapshots/<name>.json.
import { snapshotRun } from "../run/index.ts";
import { defineCommand } from "./commands.ts";
import { resolveRun } from "../records/index.ts";
import { EXIT, UsageError } from "./errors.ts";

export const snapshotCommand = defineCommand("snapshot", {
  async run(flags, positionals) {
    if (positionals.length !== 2) throw new UsageError("snapshotArguments");
    const result = await snapshotRun(resolveRun(flags.benchmark, positionals[0]), positionals[1]!);
    console.log(
      flags.json
        ? JSON.stringify(result)
        : `Snapshot of ${result.slots} slot(s) written to ${result.path} (hash ${result.hash})`,
    );
    return EXIT.pass;
  },
});
