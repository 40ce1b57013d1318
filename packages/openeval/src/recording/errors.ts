// Recording-stage errors: a stable code and a message that says what is wrong and what to do.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";
import { asClause, describeState } from "../util/words.ts";

const SITUATIONS = {
  manifestMissing: {
    code: "OE_EVIDENCE_NOT_FOUND",
    message: ({ path }: { path: string }) =>
      `No evidence manifest at ${path}; pass the directory that recordEvidence or a run wrote`,
  },
  evalRunUnknown: {
    code: "OE_EVIDENCE_NOT_FOUND",
    message: ({ evalRunId, directory, known }: { evalRunId: string; directory: string; known: string[] }) =>
      `No eval run ${evalRunId} in ${directory}; known eval runs: ${known.join(", ") || "none"}`,
  },
  evalRunUnrecorded: {
    code: "OE_EVIDENCE_NOT_FOUND",
    message: ({ evalRunId, state, error }: { evalRunId: string; state: string; error: string | null }) =>
      `Eval run ${evalRunId} has no recording (state ${describeState(state)}${error ? `: ${asClause(error)}` : ""})`,
  },
  caseNotFrozen: {
    code: "OE_EVIDENCE_NOT_FOUND",
    message: ({ evalId, caseId, directory }: { evalId: string; caseId: string; directory: string }) =>
      `The run ${directory} kept no case "${caseId}" of the eval ${evalId} (it was recorded before runs kept their cases); read it from the eval's case file`,
  },
  manifestMalformed: {
    code: "OE_EVIDENCE_CORRUPT",
    message: ({ path, problem }: { path: string; problem: string }) =>
      `Evidence manifest ${path} is malformed: ${problem}`,
  },
  manifestChanged: {
    code: "OE_EVIDENCE_CORRUPT",
    message: ({ path, hash, expectedHash }: { path: string; hash: string; expectedHash: string }) =>
      `Evidence manifest ${path} hashes to ${hash}, not the recorded ${expectedHash}: the recording was changed after it was written`,
  },
  recordedFileMissing: {
    code: "OE_EVIDENCE_CORRUPT",
    message: ({ file, directory }: { file: string; directory: string }) =>
      `Recording file ${file} is missing from ${directory}`,
  },
  recordedFileAltered: {
    code: "OE_EVIDENCE_CORRUPT",
    message: ({ file, directory }: { file: string; directory: string }) =>
      `Recording file ${file} in ${directory} does not match its recorded sha256; the recording was altered`,
  },
  nativeJsonInvalid: {
    code: "OE_EVIDENCE_CORRUPT",
    message: ({ what }: { what: string }) =>
      `The native OpenCode database has invalid JSON in ${what}; re-archive it from the run`,
  },
  nativeShapeUnexpected: {
    code: "OE_EVIDENCE_CORRUPT",
    message: ({ what, problems }: { what: string; problems: string[] }) =>
      `The native OpenCode database has an unexpected ${what} (${problems.join("; ")}); was it written by OpenCode 1.18.33?`,
  },
  versionUnsupported: {
    code: "OE_EVIDENCE_UNSUPPORTED",
    message: ({ directory, version, readable }: { directory: string; version: string; readable: number }) =>
      `Evidence at ${directory} has format version ${version}; this openeval reads version ${readable}`,
  },
  fileNotInSnapshot: {
    code: "OE_FILE_NOT_FOUND",
    message: ({ path, revision }: { path: string; revision: string }) =>
      `"${path}" is not in the ${revision} workspace snapshot; list files with workspace.files("${revision}")`,
  },
  symlinkOutsideSnapshot: {
    code: "OE_FILE_NOT_FOUND",
    message: ({ path, target }: { path: string; target: string }) =>
      `"${path}" is a symlink to ${target}, outside the snapshot; it cannot be read`,
  },
  sessionNotExported: {
    code: "OE_FILE_NOT_FOUND",
    message: ({ id, sessions }: { id: string; sessions: string[] }) =>
      `No export for session ${id}; recorded sessions: ${sessions.join(", ")}`,
  },
  fileOmitted: {
    code: "OE_FILE_OMITTED",
    message: ({
      path,
      bytes,
      sha256,
      revision,
      note,
    }: {
      path: string;
      bytes: number;
      sha256: string;
      revision: string;
      note: string;
    }) => `"${path}" (${bytes} bytes, sha256 ${sha256}) is in the ${revision} snapshot by size and hash only: ${note}`,
  },
  noRootSession: {
    code: "OE_NOT_AVAILABLE",
    message: () =>
      "The recording has no root session (OpenCode never started one); pass a sessionID from recording.sessions()",
  },
  noNativeArchive: {
    code: "OE_NOT_AVAILABLE",
    message: () =>
      "This recording has no native OpenCode archive (constructed evidence); use response, prompt, tools and workspace",
  },
  verificationOutsideGrading: {
    code: "OE_NOT_AVAILABLE",
    message: () =>
      "ctx.verification needs a container engine and the verification image, and is given to judges during grading; build the image with `npx openeval image --verification`",
  },
  noVerificationRan: { code: "OE_NOT_AVAILABLE", message: () => "no verification ran in this context" },
  toolCallWithoutMessageId: {
    code: "OE_NOT_AVAILABLE",
    message: ({ toolId }: { toolId: string }) =>
      `tool call ${toolId}: this recording has no assistant message ids on its tool calls (constructed evidence, or recorded before they were kept); a candidate recorded now has them (\`openeval run --fresh\` records it again)`,
  },
  compactionEndUnrecorded: {
    code: "OE_NOT_AVAILABLE",
    message: ({ field }: { field: string }) =>
      `metrics.compactions.${field}: OpenCode 1.x records that a compaction started, not how it ended; use metrics.compactions.started`,
  },
  reportedCostUnkept: {
    code: "OE_NOT_AVAILABLE",
    message: () =>
      "metrics.cost.reportedUSD: this recorder keeps one cost, metrics.cost.usd (null when a step was unpriced)",
  },
} as const satisfies Record<string, Situation>;

export type EvidenceSituation = keyof typeof SITUATIONS;
export type EvidenceErrorCode = (typeof SITUATIONS)[EvidenceSituation]["code"];

export class EvidenceError<S extends EvidenceSituation = EvidenceSituation> extends SituationError<
  typeof SITUATIONS,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof SITUATIONS)[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
