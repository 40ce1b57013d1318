// `openeval run`: run (or resume) the benchmark, show progress and a per-model table.
import { BENCHMARK_OPTION, defineCommand, parseScope, SCOPE_OPTIONS } from "./command.ts";
import { executeRun, RUN_OPTIONS } from "./execute-run.ts";

export const runCommand = defineCommand({
  name: "run",
  usage: "run [--benchmark <dir>] [--run <dir> | --new] [--model <provider/model>]... [--offline] [--max-cost <usd>] [--final-only] [--isolation container|process]",
  summary: "Run every eval × model × repetition as an OpenCode session, grade it, and report scores. Resumes the latest run unless --new. --model adds models to benchmark.ts's (and the run's); --only-model scopes execution to some. --final-only grades finished recordings only (no earlyStop checks). --isolation: where candidates run (default container for real models, process for controls).",
  options: { ...BENCHMARK_OPTION, ...RUN_OPTIONS, ...SCOPE_OPTIONS },
  run: (flags) => executeRun(flags, parseScope(flags)),
});
