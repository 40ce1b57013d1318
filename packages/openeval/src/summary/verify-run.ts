// verifyRun(): `openeval verify <run>` — the whole run checked against its hashes: every finalized
// row's integrity hash, every file of every judge run against its files.json, and every file of every recording
// (manifest, snapshots' objects, events, native database, session exports) against the sha256 its manifest gives;
// and the run's frozen inputs (eval folders, their objects, the harness programs) against theirs; every review file
// against its store row (an edited, deleted or hand-added one); and every invariant evaluation against its seal (and
// the triggers that keep them append-only).
import { join } from "node:path";
import { EvidenceError, openEvidence, type Evidence } from "../recording/index.ts";
import {
  checkRecords,
  readReviews,
  readInvariantEvaluations,
  ResultsStore,
  verifyFrozenInputs,
  type IntegrityProblem,
} from "../records/index.ts";
import { recordedInputProblems } from "./input-changes.ts";

export interface RunVerification {
  directory: string;
  evalRuns: number;
  judgeRuns: number;
  /** Reviews that check out. */
  reviews: number;
  /** Recording files whose hash was checked. */
  files: number;
  /** Invariant evaluations that check out. */
  invariantEvaluations: number;
  problems: IntegrityProblem[];
}

/**
 * @example
 * const { problems } = await verifyRun("results/2026-11-29T21-40-00.000Z-1a2b3c4d");
 * if (problems.length > 0) console.error(problems.map((problem) => problem.message).join("\n"));
 */
export async function verifyRun(runDirectory: string): Promise<RunVerification> {
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    const evalRuns = store.evalRuns();
    const judgeRuns = store.judgeRuns();
    const problems = checkRecords(store.directory, { evalRuns, judgeRuns }, { files: true });
    let files = 0;
    for (const evalRun of evalRuns) {
      if (!evalRun.evidence) continue;
      try {
        const evidence = await openEvidence(join(store.directory, evalRun.evidence.directory), evalRun.evidence.hash);
        files += 1 + (await verifyRecordingFiles(evidence));
      } catch (error) {
        if (!(error instanceof EvidenceError)) throw error;
        if (!problems.some((problem) => problem.id === evalRun.id))
          problems.push({ kind: "eval-run", id: evalRun.id, message: `eval run ${evalRun.id}: ${error.message}` });
      }
    }
    // The frozen inputs as they are now, and what the runner found tampered with before using them (since put back).
    const found = new Set(problems.map((problem) => problem.message));
    for (const problem of [...(await verifyFrozenInputs(store.directory)), ...recordedInputProblems(store)]) {
      if (!found.has(problem.message)) problems.push(problem);
      found.add(problem.message);
    }
    const reviews = readReviews(store);
    problems.push(...reviews.problems);
    const invariants = readInvariantEvaluations(store);
    problems.push(...invariants.problems);
    return {
      directory: store.directory,
      evalRuns: evalRuns.length,
      judgeRuns: judgeRuns.length,
      reviews: reviews.reviews.length,
      files,
      invariantEvaluations: invariants.evaluations.length,
      problems,
    };
  } finally {
    store.close();
  }
}

/** Reads every file the manifest names through the verifying reader; returns how many. */
async function verifyRecordingFiles(evidence: Evidence): Promise<number> {
  const { manifest } = evidence;
  const named: [string, string][] = [];
  for (const snapshot of [manifest.initial, manifest.final]) {
    for (const file of snapshot?.files ?? [])
      if (file.kind === "file" && !file.omitted) named.push([`objects/${file.sha256}`, file.sha256]);
  }
  if (manifest.events) named.push([manifest.events.file, manifest.events.sha256]);
  if (manifest.native) {
    named.push([manifest.native.database.file, manifest.native.database.sha256]);
    for (const session of manifest.native.sessions) named.push([session.export, session.sha256]);
  }
  const unique = new Map(named);
  for (const [file, sha256] of unique) await evidence.readVerified(file, sha256);
  return unique.size;
}
