// The records every reader plans and scores from, after their integrity check: a judge run that
// fails it (forged, edited, or judging a recording that changed) is reported and left out, so it cannot change a
// score; eval runs are kept (they were paid for) and reported.
import {
  checkEvalRunRecord,
  checkJudgeRunRecord,
  checkRecords,
  readRunModels,
  type EvalRun,
  type EvalRunHead,
  type IntegrityProblem,
  type JudgedEvalRun,
  type JudgeRun,
  type JudgeRunHead,
  type ResultsStore,
  type RunModels,
  type StoreMarks,
} from "../records/index.ts";

export interface CheckedRecords<E extends EvalRunHead = EvalRun, J extends JudgeRunHead = JudgeRun> {
  evalRuns: E[];
  judgeRuns: J[];
  integrity: IntegrityProblem[];
  runModels: RunModels;
  /** Where the store's tables ended when these were read. */
  through: StoreMarks;
}

/** What a reader keeps of each record once it is checked (WHOLE_RECORDS: all of it). */
export interface RecordKeeping<E extends EvalRunHead & JudgedEvalRun, J extends JudgeRunHead> {
  evalRun(evalRun: EvalRun): E;
  /** `judged`: what was kept of the eval run it judges, when the store has it (a keeper may share parts with it). */
  judgeRun(judgeRun: JudgeRun, judged: E | null): J;
}

const WHOLE_RECORDS: RecordKeeping<EvalRun, JudgeRun> = {
  evalRun: (evalRun) => evalRun,
  judgeRun: (judgeRun) => judgeRun,
};

/**
 * Every record, checked as it is read, and what `keep` keeps of it: a reader that keeps part of each record (the
 * viewer's index) never holds a large run's whole records at once.
 */
export function readCheckedRecords(store: ResultsStore): CheckedRecords;
export function readCheckedRecords<E extends EvalRunHead & JudgedEvalRun, J extends JudgeRunHead>(
  store: ResultsStore,
  keep: RecordKeeping<E, J>,
): CheckedRecords<E, J>;
export function readCheckedRecords(
  store: ResultsStore,
  keep: RecordKeeping<EvalRunHead & JudgedEvalRun, JudgeRunHead> = WHOLE_RECORDS,
): CheckedRecords<EvalRunHead & JudgedEvalRun, JudgeRunHead> {
  const through = store.marks();
  const integrity: IntegrityProblem[] = [];
  const evalRuns: (EvalRunHead & JudgedEvalRun)[] = [];
  for (const evalRun of store.eachEvalRun()) {
    const problem = checkEvalRunRecord(store.directory, evalRun);
    if (problem) integrity.push(problem);
    evalRuns.push(keep.evalRun(evalRun));
  }
  const judged = new Map(evalRuns.map((evalRun) => [evalRun.id, evalRun]));
  const judgeRuns: JudgeRunHead[] = [];
  for (const judgeRun of store.eachJudgeRun()) {
    const evalRun = judged.get(judgeRun.evalRunId) ?? null;
    const problem = checkJudgeRunRecord(store.directory, judgeRun, evalRun);
    if (problem) integrity.push(problem);
    judgeRuns.push(keep.judgeRun(judgeRun, evalRun));
  }
  return { evalRuns, judgeRuns: trusted(judgeRuns, integrity), integrity, runModels: readRunModels(store), through };
}

/**
 * `earlier` and what was inserted since, checked: the same records readCheckedRecords would give now, as finalized rows
 * never change (a row of `earlier` still running makes it a full read). The run's own runner uses it (it holds the
 * run's claim and recovered every unfinished row before it read `earlier`): its summary reads the rows it wrote, not
 * every row again (a second copy of a 10,000-slot run's records was ~80 MB of the runner's peak).
 */
export function readCheckedRecordsSince(store: ResultsStore, earlier: CheckedRecords): CheckedRecords {
  // A row that was running then may have been finalized since, in place: only a full read sees that.
  if ([...earlier.evalRuns, ...earlier.judgeRuns].some((record) => record.state === "running"))
    return readCheckedRecords(store);
  const through = store.marks();
  const added = store.recordsAfter(earlier.through);
  const evalRuns = [...earlier.evalRuns, ...added.evalRuns];
  const integrity = [...earlier.integrity, ...checkRecords(store.directory, added, { judged: evalRuns })];
  return {
    evalRuns,
    judgeRuns: [...earlier.judgeRuns, ...trusted(added.judgeRuns, integrity)],
    integrity,
    runModels: readRunModels(store),
    through,
  };
}

/** What a plan decides from: every eval run's and judge run's head, less the judge runs that fail the check. */
export interface PlanRecords {
  evalRuns: EvalRunHead[];
  judgeRuns: JudgeRunHead[];
  integrity: IntegrityProblem[];
  runModels: RunModels;
}

/**
 * The records a plan reads (docs/design/evidence-trust.md): the store's head columns, which it derives
 * from rows it sealed and never lets change while its triggers stand; the rows it did not seal (inserted by hand,
 * copied, or from a schema-1 store) get the full check, as does every row once a trigger is gone. A plan does not
 * re-hash recordings or judge-run files: the judge opens a recording by its hash, and the summary, the viewer and
 * `openeval verify` check every record they use. Reading and checking every whole row was ~2.4 s of a 50,000-slot plan.
 */
export function readPlanRecords(store: ResultsStore): PlanRecords {
  if (!store.immutable()) return readCheckedRecords(store);
  const heads = store.heads();
  const unsealed = store.unsealed();
  // An unsealed judge run's check chains it to the recording it judged, whose row may be sealed.
  const judged = [
    ...unsealed.evalRuns,
    ...unsealed.judgeRuns.flatMap((judgeRun) => store.evalRun(judgeRun.evalRunId) ?? []),
  ];
  const integrity = checkRecords(store.directory, unsealed, { judged });
  return {
    evalRuns: heads.evalRuns,
    judgeRuns: trusted(heads.judgeRuns, integrity),
    integrity,
    runModels: readRunModels(store),
  };
}

/** The judge runs that can be scored: neither they nor the eval run they judged failed the check. */
function trusted<J extends JudgeRunHead>(judgeRuns: readonly J[], integrity: readonly IntegrityProblem[]): J[] {
  const bad = new Set(integrity.map((problem) => problem.id));
  return judgeRuns.filter((judgeRun) => !bad.has(judgeRun.id) && !bad.has(judgeRun.evalRunId));
}

export function describeIntegrityProblems(problems: readonly IntegrityProblem[]): string[] {
  return problems.map((problem) => `integrity error: ${problem.message}`);
}
