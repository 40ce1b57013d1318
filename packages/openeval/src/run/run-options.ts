// runBenchmark's two call shapes: `runBenchmark({ benchmark, ... })` and OpenEval's `runBenchmark(path, options)`.
// Every option is honoured or refused by name: an OpenEval option this project spells otherwise says
// what to write instead, never runs with it silently ignored.
import type { BenchmarkDefinition } from "../load/index.ts";
import type { RunBenchmarkOptions } from "./run-benchmark.ts";

const KNOWN = new Set(["benchmark", "run", "new", "scope", "concurrency", "selection", "onEvent", "signal"]);

/** OpenEval 0.5 option names and what this project uses for each. */
const INSTEAD: Record<string, string> = {
  directory: "`run` (the run directory to resume)",
  fresh: "`scope: { fresh: true }` (ignore recorded work) or `new: true` (a new run directory)",
  dryRun: "planBenchmark() with the same options",
  models: "`scope: { models }`",
  onlyModels: "`scope: { onlyModels }`",
  onlyEvals: "`scope: { onlyEvals }`",
  onlyRepetitions: "`scope: { onlyRepetitions }`",
  maxCostUSD: "`scope: { maxCostUSD }`",
  finalOnly: "`scope: { finalOnly }`",
  onlyCategories: "`scope: { onlyCategories }`",
};

export function runOptionsOf(
  first: string | BenchmarkDefinition | RunBenchmarkOptions,
  second?: Omit<RunBenchmarkOptions, "benchmark">,
): RunBenchmarkOptions {
  const positional = typeof first === "string" || !("benchmark" in first);
  if (!positional && second !== undefined)
    throw new TypeError(
      "runBenchmark takes either (options) or (benchmark, options), not an options object and more options",
    );
  const options = positional ? { ...second, benchmark: first as string | BenchmarkDefinition } : first;
  if (positional && second && "benchmark" in second)
    throw new TypeError(
      "runBenchmark(benchmark, options): the benchmark is the first argument; remove `benchmark` from the options",
    );
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `runBenchmark: unsupported option${unknown.length === 1 ? "" : "s"} ${unknown.map((key) => `\`${key}\`${INSTEAD[key] ? ` (use ${INSTEAD[key]})` : ""}`).join(", ")}`,
    );
  }
  return options;
}
