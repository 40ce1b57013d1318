// The plan stage: fingerprints, slots and per-slot actions with reasons.
export {
  planSlots,
  plannedModels,
  plannedVariants,
  scoredCriteria,
  describeSlot,
  type Plan,
  type PlanRounds,
  type PlanScope,
  type PlannedSlot,
  type RecordedWork,
  type SlotAction,
} from "./plan-benchmark.ts";
export { checkScope, ScopeInvalidError } from "./check-scope.ts";
export { describeMaximum, describeUnbounded, type MaximumCost, type UnboundedWork } from "./cost.ts";
export { checkRepeatedJudging, findEvalRun, resolveExplicitRequests } from "./check-requests.ts";
export {
  candidateFingerprint,
  judgeFingerprint,
  judgmentFingerprint,
  PROCESS_RUNTIME,
  type CandidateRuntime,
} from "./fingerprints.ts";
