// Reading a finished run back in journeys: the one run folder a benchmark's results/ holds, its eval runs, and one
// slot's eval run with its judgment.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ResultsStore, STORE_FILE, type EvalRun, type JudgeRun } from "../../packages/openeval/src/records/index.ts";

/** `<benchmark>/results/<the only run>` (folders that are not runs, such as environment-builds/, aside). */
export function onlyRunDirectory(benchmarkDirectory: string): string {
  const root = join(benchmarkDirectory, "results");
  const runs = readdirSync(root).filter((name) => existsSync(join(root, name, STORE_FILE)));
  if (runs.length !== 1) throw new Error(`expected one run in ${root}, found ${runs.length}`);
  return join(root, runs[0]!);
}

/** Every eval run of a run, in the order the store keeps them. */
export function readEvalRuns(runDirectory: string): EvalRun[] {
  return withStore(runDirectory, (store) => store.evalRuns());
}

/** The (first) eval run of an eval and model, and its first judge run. */
export function readSlot(
  runDirectory: string,
  evalId: string,
  model: string,
): { evalRun: EvalRun; judgeRun?: JudgeRun } {
  return withStore(runDirectory, (store) => {
    const evalRun = store.evalRuns().find((run) => run.slot.evalId === evalId && run.slot.model === model);
    if (!evalRun) throw new Error(`no eval run of ${evalId} × ${model} in ${runDirectory}`);
    return { evalRun, judgeRun: store.judgeRuns(evalRun.id)[0] };
  });
}

function withStore<T>(runDirectory: string, read: (store: ResultsStore) => T): T {
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}
