// `openeval export <run> --output <dir>`: a static, scrubbed copy of a run's viewer that opens from disk.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { findLatestRun, resultsRoot, STORE_FILE, StoreError } from "../results/index.ts";
import { ExportError, exportRun } from "../view/index.ts";
import { BENCHMARK_OPTION, defineCommand } from "./command.ts";
import { EXIT, UsageError } from "./errors.ts";

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

/** A run directory, a run id under the benchmark's results/, or (none given) the latest run. */
function chooseRun(benchmark: string, run: string | undefined): string {
  if (run === undefined) {
    const latest = findLatestRun(resolve(benchmark));
    if (!latest) throw new UsageError(`No runs under ${resultsRoot(resolve(benchmark))}; run one with \`npx openeval run\` or pass a run directory`);
    return latest;
  }
  for (const candidate of [resolve(run), join(resultsRoot(resolve(benchmark)), run)]) {
    if (existsSync(join(candidate, STORE_FILE))) return candidate;
  }
  throw new UsageError(`${run} is not a run: pass a results/<run-id> folder or a run id under ${resultsRoot(resolve(benchmark))}`);
}
