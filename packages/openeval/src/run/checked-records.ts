// The records every reader plans and scores from, after their integrity check (issue 14 §4): a judge run that
// fails it (forged, edited, or judging a recording that changed) is reported and left out, so it cannot change a
// score; eval runs are kept (they were paid for) and reported.
import { checkRecords, readRunModels, type EvalRun, type IntegrityProblem, type JudgeRun, type ResultsStore, type RunModels, type StoreMarks } from "../records/index.ts";

export interface CheckedRecords {
  evalRuns: EvalRun[];
  judgeRuns: JudgeRun[];
  integrity: IntegrityProblem[];
  runModels: RunModels;
  /** Where the store's tables ended when these were read. */
  through: StoreMarks;
}

export function readCheckedRecords(store: ResultsStore): CheckedRecords {
  const through = store.marks();
  const evalRuns = store.evalRuns();
  const judgeRuns = store.judgeRuns();
  const integrity = checkRecords(store.directory, { evalRuns, judgeRuns });
  return { evalRuns, judgeRuns: trusted(judgeRuns, integrity), integrity, runModels: readRunModels(store), through };
}

/**
 * `earlier` and what was inserted since, checked: the same records readCheckedRecords would give now, as finalized rows
 * never change (a row of `earlier` still running makes it a full read). The run's own runner uses it (it holds the
 * run's claim and recovered every unfinished row before it read `earlier`): its summary reads the rows it wrote, not
 * every row again (a second copy of a 10,000-slot run's records was ~80 MB of the runner's peak, issue 18 §4).
 */
export function readCheckedRecordsSince(store: ResultsStore, earlier: CheckedRecords): CheckedRecords {
  // A row that was running then may have been finalized since, in place: only a full read sees that.
  if ([...earlier.evalRuns, ...earlier.judgeRuns].some((record) => record.state === "running")) return readCheckedRecords(store);
  const through = store.marks();
  const added = store.recordsAfter(earlier.through);
  const evalRuns = [...earlier.evalRuns, ...added.evalRuns];
  const integrity = [...earlier.integrity, ...checkRecords(store.directory, added, { judged: evalRuns })];
  return { evalRuns, judgeRuns: [...earlier.judgeRuns, ...trusted(added.judgeRuns, integrity)], integrity, runModels: readRunModels(store), through };
}

/** The judge runs that can be scored: neither they nor the eval run they judged failed the check. */
function trusted(judgeRuns: readonly JudgeRun[], integrity: readonly IntegrityProblem[]): JudgeRun[] {
  const bad = new Set(integrity.map((problem) => problem.id));
  return judgeRuns.filter((judgeRun) => !bad.has(judgeRun.id) && !bad.has(judgeRun.evalRunId));
}

export function describeIntegrityProblems(problems: readonly IntegrityProblem[]): string[] {
  return problems.map((problem) => `integrity error: ${problem.message}`);
}
