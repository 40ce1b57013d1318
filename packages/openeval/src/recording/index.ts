// The recording stage: the versioned evidence format (writer and reader), JudgeContext, metrics.
export { recordEvidence, type RecordEvidenceOptions } from "./record-evidence.ts";
export { openEvidence, openSealedEvidence, type Evidence } from "./evidence-reader.ts";
export { writeEvidence, writeEventsFile } from "./evidence-writer.ts";
export { extractNative, type NativeExtract, type StreamError } from "./native-extract.ts";
export type { ToolCallText } from "./tool-call-text.ts";
export { captureDirectory, captureFiles, copySnapshotObjects, type NotCopiedFile } from "./snapshot.ts";
export {
  createJudgeContext,
  type JudgeCase,
  type JudgeContext,
  type EventFilter,
  type ToolFilter,
} from "./judge-context.ts";
export { measureConstructed, measureTools } from "./metrics.ts";
export { EvidenceError } from "./errors.ts";
export { changedFiles, type ChangedFile, type FileDiff } from "./workspace-diff.ts";
export {
  openCodeStatus,
  type JudgeMetrics,
  type JudgeToolCall,
  type JudgeToolStatus,
  type RecordedEvent,
  type RecordedFile,
  type ToolMetrics,
} from "./judge-shapes.ts";
export {
  readSessionDatabase,
  type NativeEvent,
  type NativeMessage,
  type NativeSession,
  type SessionDatabase,
} from "./native-archive.ts";
export { measureSession, type MeasuredSession, type MeasureSessionRequest } from "./measure-session.ts";
export { EVIDENCE_VERSION } from "./format.ts";
export {
  type EvidenceManifest,
  type EvidenceRef,
  type FileEntry,
  type Revision,
  type Snapshot,
  type ToolCall,
} from "./schema.ts";
export { readRecording } from "./read-recording.ts";
export { toAtifTrajectories, type AtifTrajectories, type AtifOptions } from "./atif.ts";
export { ATIF_SCHEMA_VERSION, AtifTrajectorySchema, type AtifTrajectory, type AtifStep } from "./atif-schema.ts";
export { writeNativeRecording, type NativeRecording, type NativeRecordingRequest } from "./write-native-recording.ts";
export {
  VerificationLimitsSchema,
  VerificationReceiptSchema,
  VerificationRequestSchema,
  type CommandResult,
  type ParsedVerificationLimits,
  type ParsedVerificationRequest,
  type RefusedArtifact,
  type VerificationApi,
  type VerificationArtifact,
  type VerificationLimits,
  type VerificationReceipt,
  type VerificationRequest,
  type VerificationResult,
} from "./verification-contract.ts";
export type { RunMetrics } from "../records/index.ts";
