// readRecording(): the JudgeContext of one eval run of a finished (or running) benchmark run, for scripts.
import { join, resolve } from "node:path";
import { ResultsStore } from "../records/index.ts";
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
    return createJudgeContext(
      await openEvidence(join(directory, evalRun.evidence.directory), evalRun.evidence.hash),
      evalRun,
    );
  } finally {
    store.close();
  }
}
