// The run orchestrator: plan → candidate → recording → judge → store → summary, as lifecycle events.
export { runBenchmark, type RunBenchmarkOptions } from "./run-benchmark.ts";
export { planBenchmark, type PlanBenchmarkOptions } from "./plan-run.ts";
export { defaultConcurrency } from "./run-benchmark.ts";
export { RunInProgressError, runHolder } from "./recover.ts";
export { calibrateBenchmark, type CalibrationReport, type ControlCheck } from "./calibrate.ts";
export { auditBenchmark, type AuditOptions, type AuditReport } from "./audit.ts";
export {
  AUDIT_STATUSES,
  type AttackOutcome,
  type AuditFinding,
  type AuditStatus,
  type EvalAudit,
} from "./audit-report.ts";
export { addModels, type AddModelsOptions } from "./add-models.ts";
export { removeModels, type RemovedModels } from "./remove-models.ts";
export { mergeRuns, type MergedRuns } from "./merge-runs.ts";
export { snapshotRun, SNAPSHOTS_DIRECTORY, type RunSnapshot } from "./snapshot-run.ts";
export {
  prebuiltImageProblems,
  buildRunEnvironments,
  ENVIRONMENT_BUILDS_DIRECTORY,
  findRunEnvironments,
  type RunEnvironments,
} from "./environments.ts";
export { homeEngine, imagesToCarry, insecureEngineWarnings, runEngineMembers } from "./engine-pool.ts";
export { describeEngines, type EngineDescription } from "./describe-engines.ts";
