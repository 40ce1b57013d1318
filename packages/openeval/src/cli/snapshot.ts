// `openeval snapshot <run> <name>`: freeze the run's active scores to maintenance/snapshots/<name>.json.
import { snapshotRun } from "../run/index.ts";
import { BENCHMARK_OPTION, defineCommand } from "./command.ts";
import { chooseRun } from "./choose-run.ts";
import { EXIT, UsageError } from "./errors.ts";

export const snapshotCommand = defineCommand({
  name: "snapshot",
  usage: "snapshot <run-dir | run-id> <name> [--json] [--benchmark <dir>]",
  summary: "Freeze a run's active scores (slots, eval and judge runs, scores, verdict) with their hash to <run>/maintenance/snapshots/<name>.json; never overwrites one.",
  options: { ...BENCHMARK_OPTION, json: { type: "boolean", default: false } },
  async run(flags, positionals) {
    if (positionals.length !== 2) throw new UsageError("snapshot takes a run and a name, e.g. `openeval snapshot results/<run-id> before-change`");
    const result = await snapshotRun(chooseRun(flags.benchmark, positionals[0]), positionals[1]!);
    console.log(flags.json ? JSON.stringify(result) : `Snapshot of ${result.slots} slot(s) written to ${result.path} (hash ${result.hash})`);
    return EXIT.pass;
  },
});
