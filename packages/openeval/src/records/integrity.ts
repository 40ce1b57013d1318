// Tamper evidence for a run's records. A finalized row carries `integrity`: the hash of
// the row chained to its evidence — an eval run to its recording's manifest hash, a judge run to that hash and to
// `files.json`, the sha256 of every file its folder holds. An edited row, an INSERTed one, or an edited judge-run
// file then no longer matches, and every reader of whole records (the runner, readResults, the summary, the viewer,
// `openeval verify`) reports it instead of scoring it; a plan checks the rows the store did not seal (see
// summary/checked-records.ts readPlanRecords). The hashes are unkeyed: this makes changes evident, not impossible.
// An eval run whose recording failed its check against the harness's event stream as it was recorded
// (`integrityError`) is reported the same way.
//
// A row the store sealed also has its stored text's sha256 beside it, and a judge run the hash of that text chained
// to its evidence and files.json (`StoredSeal`). When the text still hashes to it, the row is exactly what was sealed,
// so its check hashes the text instead of rebuilding the row's canonical JSON, and the store parses it without a
// schema (the canonical hashes and the schema would be half of planning a large run). Same strength: forging
// either seal takes one unkeyed sha256, as forging `integrity` does.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import * as z from "zod";
import { fingerprint, sha256, sha256OfFile } from "../util/hash.ts";
import { writeFileAtomicSync } from "../util/files.ts";
import type { EvalRun, JudgeRun } from "./schema.ts";
import { toStoredRow } from "./slot-key.ts";
import { describeRecordingIntegrity } from "./recording-integrity.ts";

export const JUDGE_FILES_MANIFEST = "files.json";
/** The evidence manifest's name (recording/evidence-writer.ts writes it; results cannot import recording). */
const EVIDENCE_MANIFEST = "manifest.json";

const JudgeFilesSchema = z.object({
  format: z.literal("openeval.judge-files"),
  files: z.record(z.string(), z.string()),
});

export interface IntegrityProblem {
  /** The record the problem is about; `inputs`: a run's frozen inputs (id: the eval's id, or "harness"); `review`: a person's review (records/reviews.ts); `invariant`: an invariant evaluation (records/invariant-results.ts). */
  kind: "eval-run" | "judge-run" | "inputs" | "review" | "invariant";
  id: string;
  /** What changed, naming the row or file. */
  message: string;
}

/** A finalized row as the store writes it: its text, and the seals of that text (the store keeps both). */
export interface SealedRow {
  value: string;
  seal: StoredSeal;
}

/** `valueSha256`: the sha256 of the row's stored text; `chainSha256` (judge runs): that hash chained to the evidence
 * it judged and its files.json. */
export interface StoredSeal {
  valueSha256: string;
  chainSha256: string | null;
}

/**
 * Rows whose stored text the store found to hash to its seal, with that seal (set by the store as it reads). The check
 * that uses a seal spends it: it vouches for the row as read, not for what the object may become, and a runner keeps a
 * large run's rows to its summary, and the seals would be a sizeable part of that. A later check of the same row
 * rebuilds its canonical hash instead: the same answer for an untouched row, only slower.
 */
const intactRows = new WeakMap<EvalRun | JudgeRun, StoredSeal>();

/** Marks a row just parsed from text that hashes to `seal.valueSha256` (the store's read calls it). */
export function vouchForStoredText(row: EvalRun | JudgeRun, seal: StoredSeal): void {
  intactRows.set(row, seal);
}

function spendSeal(row: EvalRun | JudgeRun): StoredSeal | undefined {
  const seal = intactRows.get(row);
  intactRows.delete(row);
  return seal;
}

/** The row as stored (slot-key.ts toStoredRow), with its integrity hash. */
export function sealEvalRun(evalRun: EvalRun): SealedRow {
  const value = JSON.stringify({ ...toStoredRow(evalRun), integrity: evalRunIntegrity(evalRun) });
  return { value, seal: { valueSha256: sha256(value), chainSha256: null } };
}

/** Writes the judge run's files.json and returns the row sealed to it and to the recording it judged. */
export function sealJudgeRun(runDirectory: string, judgeRun: JudgeRun, evalRun: EvalRun | null): SealedRow {
  const files = hashJudgeFiles(runDirectory, judgeRun);
  const manifest = `${JSON.stringify({ format: "openeval.judge-files", files }, null, 2)}\n`;
  writeFileAtomicSync(join(runDirectory, judgeRun.directory, JUDGE_FILES_MANIFEST), manifest);
  const filesSha256 = sha256(manifest);
  const value = JSON.stringify({
    ...toStoredRow(judgeRun),
    integrity: judgeRunIntegrity(judgeRun, evalRun, filesSha256),
  });
  const valueSha256 = sha256(value);
  return {
    value,
    seal: { valueSha256, chainSha256: judgeChain(valueSha256, judgedEvidence(judgeRun, evalRun), filesSha256) },
  };
}

/**
 * Checks rows (always) and, with `files`, every judge-run file against files.json: one manifest read per record;
 * `files` reads each judge-run file too (the viewer and `openeval verify`).
 * `judged`: the eval runs the judge runs may have judged, when they are not all among `records.evalRuns`.
 */
export function checkRecords(
  runDirectory: string,
  records: { evalRuns: readonly EvalRun[]; judgeRuns: readonly JudgeRun[] },
  options: { files?: boolean; judged?: readonly JudgedEvalRun[] } = {},
): IntegrityProblem[] {
  const evalRuns = new Map((options.judged ?? records.evalRuns).map((evalRun) => [evalRun.id, evalRun]));
  return [
    ...records.evalRuns.map((evalRun) => checkEvalRunRecord(runDirectory, evalRun)),
    ...records.judgeRuns.map((judgeRun) =>
      checkJudgeRunRecord(runDirectory, judgeRun, evalRuns.get(judgeRun.evalRunId) ?? null, options.files ?? false),
    ),
  ].filter((problem) => problem !== null);
}

/** What a judge run's check reads of the eval run it judged: the recording it was chained to. */
export type JudgedEvalRun = Pick<EvalRun, "id" | "evidence">;

/** One eval run's problem (see checkRecords); null when it has none or is still running. */
export function checkEvalRunRecord(runDirectory: string, evalRun: EvalRun): IntegrityProblem | null {
  const problem = evalRun.state === "running" ? null : checkEvalRun(runDirectory, evalRun);
  return problem ? { kind: "eval-run", id: evalRun.id, message: problem } : null;
}

/** One judge run's problem (see checkRecords), given the eval run it judged; null when it has none or is still running. */
export function checkJudgeRunRecord(
  runDirectory: string,
  judgeRun: JudgeRun,
  judged: JudgedEvalRun | null,
  files = false,
): IntegrityProblem | null {
  const problem = judgeRun.state === "running" ? null : checkJudgeRun(runDirectory, judgeRun, judged, files);
  return problem ? { kind: "judge-run", id: judgeRun.id, message: problem } : null;
}

/** Checks one judge-run file against files.json before it is served; null when it matches. */
export function checkJudgeRunFile(
  runDirectory: string,
  judgeRun: Pick<JudgeRun, "id" | "directory">,
  path: string,
): string | null {
  const listed = readJudgeFiles(runDirectory, judgeRun);
  if (typeof listed === "string") return listed;
  const expected = listed[path];
  if (expected === undefined)
    return `${posix.join(judgeRun.directory, path)} is not listed in the judge run's ${JUDGE_FILES_MANIFEST}: it was added after the judge run finished`;
  const file = join(runDirectory, judgeRun.directory, path);
  if (!existsSync(file)) return `${posix.join(judgeRun.directory, path)} is missing`;
  return sha256(readFileSync(file)) === expected
    ? null
    : `${posix.join(judgeRun.directory, path)} was changed after the judge run finished (sha256 differs from ${JUDGE_FILES_MANIFEST})`;
}

function checkEvalRun(runDirectory: string, evalRun: EvalRun): string | null {
  const sealed = spendSeal(evalRun) !== undefined;
  if (evalRun.integrity === undefined)
    return `eval run ${evalRun.id} has no integrity hash: the row was inserted by hand or by an older openeval`;
  if (!sealed && evalRun.integrity !== evalRunIntegrity(evalRun))
    return `eval run ${evalRun.id}: the row was edited after it was finalized (its integrity hash does not match)`;
  // Found when it was recorded: the candidate changed OpenCode's database under the harness.
  if (evalRun.integrityError) return `eval run ${evalRun.id}: ${describeRecordingIntegrity(evalRun.integrityError)}`;
  if (!evalRun.evidence) return null;
  // One open and read per record, into a reused buffer: a separate existence check would double the file-system calls of a plan.
  const manifest = sha256OfFile(join(runDirectory, evalRun.evidence.directory, EVIDENCE_MANIFEST));
  if (manifest === null) return `eval run ${evalRun.id}: its recording's ${EVIDENCE_MANIFEST} is missing`;
  if (manifest !== evalRun.evidence.hash)
    return `eval run ${evalRun.id}: its recording's ${EVIDENCE_MANIFEST} was changed (sha256 differs from the row's evidence hash)`;
  return null;
}

function checkJudgeRun(
  runDirectory: string,
  judgeRun: JudgeRun,
  evalRun: JudgedEvalRun | null,
  files: boolean,
): string | null {
  const seal = spendSeal(judgeRun);
  if (judgeRun.integrity === undefined)
    return `judge run ${judgeRun.id} has no integrity hash: the row was inserted by hand or by an older openeval`;
  const manifest = sha256OfFile(join(runDirectory, judgeRun.directory, JUDGE_FILES_MANIFEST));
  if (manifest === null) return `judge run ${judgeRun.id}: its ${JUDGE_FILES_MANIFEST} is missing`;
  const intact = seal?.chainSha256
    ? seal.chainSha256 === judgeChain(seal.valueSha256, judgedEvidence(judgeRun, evalRun), manifest)
    : judgeRun.integrity === judgeRunIntegrity(judgeRun, evalRun, manifest);
  if (!intact) {
    return `judge run ${judgeRun.id}: the row, its ${JUDGE_FILES_MANIFEST} or the recording it judged was changed after it was finalized (its integrity hash does not match)`;
  }
  if (!files) return null;
  const listed = readJudgeFiles(runDirectory, judgeRun);
  if (typeof listed === "string") return listed;
  const present = hashJudgeFiles(runDirectory, judgeRun);
  const changed = Object.keys({ ...listed, ...present })
    .filter((path) => listed[path] !== present[path])
    .sort();
  if (changed.length === 0) return null;
  const describe = (path: string) =>
    `${posix.join(judgeRun.directory, path)} (${present[path] === undefined ? "removed" : listed[path] === undefined ? "added" : "changed"})`;
  return `judge run ${judgeRun.id}: files changed after it finished: ${changed.map(describe).join(", ")}`;
}

/** Hashes cover the row as stored, so that a row sealed before slot keys always named their variant still matches. */
function evalRunIntegrity(evalRun: EvalRun): string {
  return fingerprint({ row: { ...toStoredRow(evalRun), integrity: undefined } });
}

function judgeRunIntegrity(judgeRun: JudgeRun, evalRun: JudgedEvalRun | null, filesSha256: string): string {
  return fingerprint({
    row: { ...toStoredRow(judgeRun), integrity: undefined },
    evidence: judgedEvidence(judgeRun, evalRun),
    files: filesSha256,
  });
}

/** The recording a judge run graded: an early decision's snapshot, else its eval run's evidence. */
function judgedEvidence(judgeRun: JudgeRun, evalRun: JudgedEvalRun | null): string | null {
  return judgeRun.decidedEarly?.checkpoint.hash ?? evalRun?.evidence?.hash ?? null;
}

function judgeChain(valueSha256: string, evidence: string | null, filesSha256: string): string {
  return sha256(`${valueSha256}\n${evidence ?? ""}\n${filesSha256}`);
}

function readJudgeFiles(
  runDirectory: string,
  judgeRun: Pick<JudgeRun, "id" | "directory">,
): Record<string, string> | string {
  const path = join(runDirectory, judgeRun.directory, JUDGE_FILES_MANIFEST);
  if (!existsSync(path)) return `judge run ${judgeRun.id}: its ${JUDGE_FILES_MANIFEST} is missing`;
  const parsed = JudgeFilesSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  return parsed.success ? parsed.data.files : `judge run ${judgeRun.id}: its ${JUDGE_FILES_MANIFEST} is malformed`;
}

/** Every file of the judge run's folder, by relative path; an early decision's snapshot is a recording of its own. */
function hashJudgeFiles(runDirectory: string, judgeRun: JudgeRun): Record<string, string> {
  const root = join(runDirectory, judgeRun.directory);
  const skip = judgeRun.decidedEarly
    ? posix.relative(judgeRun.directory, judgeRun.decidedEarly.checkpoint.directory)
    : null;
  const files: Record<string, string> = {};
  if (!existsSync(root)) return files;
  for (const name of readdirSync(root, { recursive: true, encoding: "utf8" }).sort()) {
    const path = name.split("\\").join("/");
    if (path === JUDGE_FILES_MANIFEST || (skip !== null && (path === skip || path.startsWith(`${skip}/`)))) continue;
    const absolute = join(root, name);
    if (statSync(absolute).isFile()) files[path] = sha256(readFileSync(absolute));
  }
  return files;
}
