// readRecording(): the JudgeContext of one eval run of a finished (or running) benchmark run, for scripts. ctx.case is
// the case as the run last froze its eval: what its latest judgments were given.
import { join, resolve } from "node:path";
import { readFrozenCase, ResultsStore } from "../records/index.ts";
import { EvidenceError } from "./errors.ts";
import { openEvidence } from "./evidence-reader.ts";
import { createJudgeContext, type JudgeContext } from "./judge-context.ts";

/**
 * Opens the recording of one eval run. Dispose it to remove every copy it made.
 * @example
 * await using ctx = await readRecording("./results/2026-11-29T21-40-00.000Z-1a2b3c4d", "eval_…");
 * const db = await ctx.native.database();
 * console.log(db.query("SELECT id, title FROM session").all());
 */
export async function readRecording(runDirectory: string, evalRunId: string): Promise<JudgeContext> {
  const directory = resolve(runDirectory);
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    const evalRun = store.evalRun(evalRunId);
    if (!evalRun) {
      const known = store.evalRuns().map((run) => run.id);
      throw new EvidenceError("evalRunUnknown", { evalRunId, directory, known });
    }
    if (!evalRun.evidence) {
      throw new EvidenceError("evalRunUnrecorded", { evalRunId, state: evalRun.state, error: evalRun.error });
    }
    const { evalId, case: caseId } = evalRun.slot;
    return createJudgeContext(
      await openEvidence(join(directory, evalRun.evidence.directory), evalRun.evidence.hash),
      evalRun,
      { case: caseId === undefined ? null : await readCase(directory, evalId, caseId) },
    );
  } finally {
    store.close();
  }
}

/** ctx.case as the run's judges were given it: from the eval's cases the run froze. */
async function readCase(directory: string, evalId: string, caseId: string) {
  const item = await readFrozenCase(directory, evalId, caseId);
  if (!item) throw new EvidenceError("caseNotFrozen", { evalId, caseId, directory });
  return item;
}
