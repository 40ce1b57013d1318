// The evidence format (version 1): the manifest and what it points at. A manifest's sha256 is the evidence
// identity; every file it names is content-addressed and verified on read.
import * as z from "zod";
import { RunMetricsSchema } from "../records/index.ts";
import { EVIDENCE_FORMAT, EVIDENCE_VERSION } from "./format.ts";

const count = z.number().int().nonnegative();

export const FileEntrySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("file"),
    path: z.string(),
    bytes: z.number().int().nonnegative(),
    sha256: z.string(),
    mode: z.number().int(),
    /** Over a snapshot limit: recorded by size and sha256 only, its contents were not copied. */
    omitted: z.object({ limit: z.enum(["file", "snapshot"]), note: z.string() }).optional(),
  }),
  z.object({ kind: z.literal("symlink"), path: z.string(), target: z.string() }),
]);

export const SnapshotSchema = z.object({
  capturedAt: z.string(),
  files: z.array(FileEntrySchema),
});

export const ToolCallSchema = z.object({
  id: z.string(),
  sessionID: z.string().nullable(),
  name: z.string(),
  /** The assistant message that made the call (absent in recordings made before it was kept, and in constructed ones). */
  messageID: z.string().optional(),
  /** OpenCode's terminal tool states are completed/error; pending/running mean the call never finished. */
  status: z.enum(["pending", "running", "completed", "error"]),
  input: z.unknown(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  metadata: z.unknown().optional(),
  startedAt: z.number().nullable(),
  completedAt: z.number().nullable(),
  durationMs: z.number().nullable(),
});

export const NativeArchiveSchema = z.object({
  database: z.object({ file: z.string(), sha256: z.string(), bytes: count }),
  opencodeVersion: z.string(),
  rootSessionID: z.string().nullable(),
  sessions: z.array(
    z.object({ id: z.string(), parentID: z.string().nullable(), export: z.string(), sha256: z.string() }),
  ),
  /**
   * Errors of steps the database keeps without one (attempts the provider rejected and OpenCode moved past, e.g. by
   * compacting), matched from the run's event stream; messages() shows them on those steps. Absent in older recordings.
   */
  stepErrors: z.array(z.object({ messageID: z.string(), name: z.string(), message: z.string() })).optional(),
});

export const EvidenceManifestSchema = z.object({
  format: z.literal(EVIDENCE_FORMAT),
  version: z.literal(EVIDENCE_VERSION),
  /**
   * `constructed`: made by recordEvidence without a model; `candidate`: recorded from an OpenCode session;
   * `checkpoint`: a fixed snapshot of a candidate session still running (earlyStop checks).
   */
  kind: z.enum(["constructed", "candidate", "checkpoint"]),
  createdAt: z.string(),
  prompt: z.string(),
  response: z.object({ text: z.string() }),
  tools: z.array(ToolCallSchema),
  initial: SnapshotSchema.nullable(),
  final: SnapshotSchema.nullable(),
  events: z.object({ file: z.string(), count, sha256: z.string() }).nullable(),
  native: NativeArchiveSchema.nullable(),
  metrics: RunMetricsSchema,
});

export type FileEntry = z.infer<typeof FileEntrySchema>;
export type Snapshot = z.infer<typeof SnapshotSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type NativeArchive = z.infer<typeof NativeArchiveSchema>;
export type EvidenceManifest = z.infer<typeof EvidenceManifestSchema>;
export type Revision = "initial" | "final";

/** Where a recording lives and what it must hash to. */
export interface EvidenceRef {
  directory: string;
  hash: string;
}
