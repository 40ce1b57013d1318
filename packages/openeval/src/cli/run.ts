// `openeval run`: run (or resume) the benchmark, print progress and a per-model table.
import { runBenchmark } from "../run/index.ts";
import { createPlainReporter } from "../report/plain-reporter.ts";
import { formatSummary } from "../report/summary-table.ts";
import { BENCHMARK_OPTION, defineCommand, parseScope, SCOPE_OPTIONS } from "./command.ts";
import { EXIT } from "./errors.ts";

export const runCommand = defineCommand({
  name: "run",
  usage: "run [--benchmark <dir>] [--run <dir> | --new] [--model <provider/model>]...",
  summary: "Run every eval × model × repetition as an OpenCode session, grade it, and report scores. Resumes the latest run unless --new.",
  options: {
    ...BENCHMARK_OPTION,
    run: { type: "string" },
    new: { type: "boolean", default: false },
    ...SCOPE_OPTIONS,
  },
  async run(flags) {
    const controller = new AbortController();
    process.once("SIGINT", () => controller.abort());
    const summary = await runBenchmark({
      benchmark: flags.benchmark as string,
      run: flags.run as string | undefined,
      new: flags.new as boolean,
      scope: parseScope(flags),
      signal: controller.signal,
      onEvent: createPlainReporter((line) => console.error(line)),
    });
    console.log(formatSummary(summary));
    return summary.complete ? EXIT.pass : EXIT.incomplete;
  },
});
