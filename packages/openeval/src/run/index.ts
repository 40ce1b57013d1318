// The run orchestrator: plan → candidate → recording → judge → store → summary, as lifecycle events.
export { runBenchmark, type RunBenchmarkOptions } from "./run-benchmark.ts";
export type { RunnerEvent, RunnerListener, RunSummary } from "./events.ts";
export { planBenchmark, type PlanBenchmarkOptions } from "./plan-run.ts";
export { defaultConcurrency } from "./run-benchmark.ts";
