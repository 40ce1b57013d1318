// The records every reader plans and scores from, after their integrity check (issue 14 §4): a judge run that
// fails it (forged, edited, or judging a recording that changed) is reported and left out, so it cannot change a
// score; eval runs are kept (they were paid for) and reported.
import { checkRecords, readRunModels, type EvalRun, type IntegrityProblem, type JudgeRun, type ResultsStore, type RunModels } from "../records/index.ts";

export interface CheckedRecords {
  evalRuns: EvalRun[];
  judgeRuns: JudgeRun[];
  integrity: IntegrityProblem[];
  runModels: RunModels;
}

export function readCheckedRecords(store: ResultsStore): CheckedRecords {
  const evalRuns = store.evalRuns();
  const judgeRuns = store.judgeRuns();
  const integrity = checkRecords(store.directory, { evalRuns, judgeRuns });
  const bad = new Set(integrity.map((problem) => problem.id));
  return { evalRuns, judgeRuns: judgeRuns.filter((judgeRun) => !bad.has(judgeRun.id) && !bad.has(judgeRun.evalRunId)), integrity, runModels: readRunModels(store) };
}

export function describeIntegrityProblems(problems: readonly IntegrityProblem[]): string[] {
  return problems.map((problem) => `integrity error: ${problem.message}`);
}
