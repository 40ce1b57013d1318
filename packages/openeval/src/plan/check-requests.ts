// `openeval retry` and `rejudge` name eval runs; each name must be something they can redo (issue 13, SPEC §5).
// Retrying a completed eval run would pay for the candidate again for nothing, and an unknown or superseded id
// would quietly do nothing: both are refused, naming the eval runs that are active for the slot.
import { sameSlot, type EvalRun } from "../records/index.ts";
import { describeSlot, type PlanScope } from "./plan-benchmark.ts";
import { ScopeInvalidError } from "./check-scope.ts";

/** Eval run states `retry` executes again: the candidate did not finish on its own terms, or the harness failed it. */
const RETRYABLE = new Set<EvalRun["state"]>(["failed", "timed_out", "cost_limited", "interrupted"]);

/**
 * Throws ScopeInvalidError for every retry/rejudge id that is unknown, superseded, or not in a state it can redo.
 * The eval runs are read only when ids were given: a large run's rows are otherwise read once, for the plan.
 * @example checkExplicitRequests(() => store.evalRuns(), { retry: ["eval_123"] }) // throws when eval_123 completed: use rejudge
 */
export function checkExplicitRequests(readEvalRuns: () => readonly EvalRun[], scope: Pick<PlanScope, "retry" | "rejudge">): void {
  const requests = [...(scope.retry ?? []).map((id) => ["retry", id] as const), ...(Array.isArray(scope.rejudge) ? scope.rejudge : []).map((id) => ["rejudge", id] as const)];
  if (requests.length === 0) return;
  const evalRuns = readEvalRuns();
  const problems = requests.map(([command, id]) => refusal(command, id, evalRuns)).filter((problem): problem is string => problem !== null);
  if (problems.length > 0) throw new ScopeInvalidError(problems.join("\n"));
}

function refusal(command: "retry" | "rejudge", id: string, evalRuns: readonly EvalRun[]): string | null {
  const evalRun = evalRuns.find((run) => run.id === id);
  if (!evalRun) return `${command} ${id}: no such eval run in this run; \`openeval plan\` lists the eval runs and what they need`;
  const active = evalRuns.filter((run) => sameSlot(run.slot, evalRun.slot)).at(-1)!;
  if (active.id !== id) return `${command} ${id}: superseded by a later execution of ${describeSlot(evalRun.slot)}; the active eval run of that slot is ${active.id}`;
  if (command === "retry" && !(RETRYABLE.has(evalRun.state) || evalRun.infrastructureError)) {
    return `retry ${id}: it ended ${evalRun.state}, so there is nothing to execute again; to grade its recording again use \`openeval rejudge ${id}\``;
  }
  if (command === "rejudge" && (evalRun.evidence === null || evalRun.infrastructureError || evalRun.state === "failed" || evalRun.state === "interrupted")) {
    return `rejudge ${id}: it ended ${evalRun.state}${evalRun.infrastructureError ? " (infrastructure error)" : ""} and has no recording to judge; execute it again with \`openeval retry ${id}\``;
  }
  return null;
}
