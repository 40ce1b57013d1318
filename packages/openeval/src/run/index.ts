// The run orchestrator: plan → candidate → recording → judge → store → summary, as lifecycle events.
export { runBenchmark, type RunBenchmarkOptions } from "./run-benchmark.ts";
export type { RunnerEvent, RunnerListener, RunSummary } from "./events.ts";
