// `openeval retry` and `rejudge` name eval runs; each name must be something they can redo.
// Retrying a completed eval run would pay for the candidate again for nothing, and an unknown or superseded id
// would quietly do nothing: both are refused, naming the eval runs that are active for the slot. A name may be the
// full id or, as the viewer shows ids, a prefix of it that no other eval run of the run shares.
import { sameSlot, type EvalRun } from "../records/index.ts";
import { describeSlot, type PlannedSlot, type PlanScope } from "./plan-benchmark.ts";
import { ScopeInvalidError } from "./check-scope.ts";
import { describeState } from "../util/words.ts";

/** Eval run states `retry` executes again: the candidate did not finish on its own terms, or the harness failed it. */
const RETRYABLE = new Set<EvalRun["state"]>([
  "failed",
  "timed_out",
  "cost_limited",
  "token_limited",
  "step_limited",
  "interrupted",
]);
/** How many eval runs an ambiguous name lists. */
const LISTED_CANDIDATES = 5;

type ExplicitRequests = Pick<PlanScope, "retry" | "rejudge">;

/**
 * The retry/rejudge requests with every name resolved to the full id of the eval run it names. Throws
 * ScopeInvalidError for every name that is unknown, ambiguous, superseded, or not in a state its command can redo.
 * The eval runs are read only when names were given: a large run's rows are otherwise read once, for the plan.
 * @example resolveExplicitRequests(() => store.evalRuns(), { retry: ["eval_1a2b3c4d"] }) // { retry: ["eval_1a2b3c4d-…"] }, or throws when it completed: use rejudge
 */
export function resolveExplicitRequests(
  readEvalRuns: () => readonly EvalRun[],
  scope: ExplicitRequests,
): ExplicitRequests {
  const { retry, rejudge } = scope;
  if (!retry?.length && (rejudge === undefined || typeof rejudge === "string" || rejudge.length === 0)) return scope;
  const evalRuns = readEvalRuns();
  const problems: string[] = [];
  const resolveAll = (command: "retry" | "rejudge", names: readonly string[]) =>
    names.flatMap((name) => {
      const resolved = resolveRequest(command, name, evalRuns);
      if (typeof resolved === "string") problems.push(resolved);
      return typeof resolved === "string" ? [] : [resolved.id];
    });
  const resolved = {
    ...(retry ? { retry: resolveAll("retry", retry) } : {}),
    ...(rejudge ? { rejudge: typeof rejudge === "string" ? rejudge : resolveAll("rejudge", rejudge) } : {}),
  };
  if (problems.length > 0) throw new ScopeInvalidError(problems);
  return resolved;
}

/**
 * The eval run a name means: the one with that id, else the only one whose id starts with it (the viewer's short
 * form); the problem, in words, when there is none or more than one.
 * @example findEvalRun("eval_1a2b3c4d", evalRuns) // the eval run eval_1a2b3c4d-…, when no other id starts so
 */
export function findEvalRun<E extends Pick<EvalRun, "id">>(name: string, evalRuns: readonly E[]): E | string {
  const exact = evalRuns.find((run) => run.id === name);
  if (exact) return exact;
  const matches = name === "" ? [] : evalRuns.filter((run) => run.id.startsWith(name));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    return "no such eval run in this run; `openeval plan` lists the eval runs and what they need";
  const listed = matches
    .slice(0, LISTED_CANDIDATES)
    .map((run) => run.id)
    .join(", ");
  const more = matches.length > LISTED_CANDIDATES ? ` and ${matches.length - LISTED_CANDIDATES} more` : "";
  return `${matches.length} eval runs start with it (${listed}${more}); give more of the id`;
}

function resolveRequest(command: "retry" | "rejudge", name: string, evalRuns: readonly EvalRun[]): EvalRun | string {
  const evalRun = findEvalRun(name, evalRuns);
  if (typeof evalRun === "string") return `${command} ${name}: ${evalRun}`;
  const { id } = evalRun;
  const active = evalRuns.findLast((run) => sameSlot(run.slot, evalRun.slot))!;
  if (active.id !== id)
    return `${command} ${name}: superseded by a later execution of ${describeSlot(evalRun.slot)}; the active eval run of that slot is ${active.id}`;
  if (command === "retry" && !(RETRYABLE.has(evalRun.state) || evalRun.infrastructureError)) {
    return `retry ${name}: it ended ${describeState(evalRun.state)}, so there is nothing to execute again; to grade its recording again use \`openeval rejudge ${id}\``;
  }
  if (
    command === "rejudge" &&
    (evalRun.evidence === null ||
      evalRun.infrastructureError ||
      evalRun.state === "failed" ||
      evalRun.state === "interrupted")
  ) {
    return `rejudge ${name}: it ended ${describeState(evalRun.state)}${evalRun.infrastructureError ? " (infrastructure error)" : ""} and has no recording to judge; execute it again with \`openeval retry ${id}\``;
  }
  return evalRun;
}

/**
 * `rejudge --repeat` that would grade nothing is refused: a named eval run whose eval has no judge.md (only rubric
 * judgments repeat), or a run with no judged rubric recording in scope.
 */
export function checkRepeatedJudging(slots: readonly PlannedSlot[], scope: PlanScope): void {
  if (!scope.repeatJudgments) return;
  const repeated = slots.filter((slot) => typeof slot.judging === "object");
  const named = Array.isArray(scope.rejudge) ? scope.rejudge : [];
  const problems = named
    .filter((id) => !repeated.some((slot) => slot.evalRun?.id === id))
    .map((id) => {
      const slot = slots.find((planned) => planned.evalRun?.id === id);
      return slot
        ? `rejudge --repeat ${id}: ${describeSlot(slot)} has no judge.md judgment to grade again (${slot.reason.toLowerCase()}); only rubric judgments repeat`
        : `rejudge --repeat ${id}: it is not the recording any slot in scope counts; \`openeval plan\` lists them`;
    });
  if (problems.length === 0 && repeated.length === 0) {
    problems.push(
      "rejudge --repeat: no judged recording of an eval with judge.md is in scope, so there is nothing to grade again; run `openeval run` first, or widen the scope",
    );
  }
  if (problems.length > 0) throw new ScopeInvalidError(problems);
}
