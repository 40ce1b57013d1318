// `openeval export <run> --output <dir>`: a static, scrubbed copy of a run's viewer that opens from disk.
import { StoreError } from "../results/index.ts";
import { ExportError, exportRun } from "../view/index.ts";
import { BENCHMARK_OPTION, defineCommand } from "./command.ts";
import { EXIT, UsageError } from "./errors.ts";
import { chooseRun } from "./choose-run.ts";

export const exportCommand = defineCommand({
  name: "export",
  usage: "export [<run-dir | run-id>] --output <dir> [--benchmark <dir>]",
  summary: "Write a static copy of a run's viewer (credentials and host paths scrubbed) that opens from disk without a server. Default: the latest run.",
  options: { ...BENCHMARK_OPTION, output: { type: "string" } },
  async run(flags, positionals) {
    if (typeof flags.output !== "string") throw new UsageError("--output <dir> is required: the folder to write the export to");
    if (positionals.length > 1) throw new UsageError(`export takes one run; got ${positionals.join(", ")}`);
    const run = chooseRun(flags.benchmark as string, positionals[0]);
    try {
      const result = await exportRun({
        run,
        output: flags.output,
        onProgress: (done, total) => process.stderr.write(`\rexporting ${done}/${total}`),
      });
      process.stderr.write("\n");
      console.log(`Exported run ${result.runId} (${result.files} files, ${(result.bytes / 1024 / 1024).toFixed(1)} MB). Open ${result.index}`);
      return EXIT.pass;
    } catch (error) {
      if (error instanceof ExportError || error instanceof StoreError) throw new UsageError(error.message);
      throw error;
    }
  },
});
