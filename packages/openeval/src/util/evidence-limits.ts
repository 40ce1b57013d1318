// How much of a workspace a recording copies: a file over the per-file limit, or one that
// would take a snapshot over its total, is recorded by size and sha256 with a note instead of being copied.
// benchmark.ts `evidence` overrides both; the prompt limit is fixed (a task prompt this large is a mistake).

export interface SnapshotLimits {
  maxFileBytes: number;
  maxSnapshotBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { maxFileBytes: 50 * MiB, maxSnapshotBytes: 500 * MiB };

/** prompt.md is sent verbatim and stored in every recording: over this it is a validation error. */
export const MAX_PROMPT_BYTES = 1 * MiB;
