// earlyStop checkpoints: a fixed, verified recording of a candidate that is still running — its
// workspace and a consistent copy of its live native database at one moment — for an early judge check to read.
import type { SnapshotLimits } from "../util/evidence-limits.ts";
import {
  captureDirectory,
  copySnapshotObjects,
  writeNativeRecording,
  type EvidenceRef,
  type Snapshot,
} from "../recording/index.ts";
import { redactBytes } from "../opencode/index.ts";

/** Writes a checkpoint recording into `directory` (absolute, empty) and returns it. */
export type TakeCheckpoint = (directory: string) => Promise<EvidenceRef>;

export interface LiveCandidate {
  workspace: string;
  /** The native database OpenCode is writing. */
  databasePath: string;
  prompt: string;
  /** The workspace as seeded, and the evidence folder holding its objects. */
  initial: Snapshot;
  evidenceDirectory: string;
  secrets: string[];
  /** benchmark.ts `evidence`: what a snapshot copies. */
  limits: SnapshotLimits;
  startedAt: number;
}

/**
 * Sessions are not exported for a checkpoint: judges read the database-derived evidence, which is the same as the
 * final recording's.
 * @example const checkpoint = await checkpointOf(live)(join(runDirectory, "eval-runs", id, "checks", "1", "evidence"));
 */
export function checkpointOf(live: LiveCandidate): TakeCheckpoint {
  return async (directory) => {
    const { evidence } = await writeNativeRecording({
      directory,
      kind: "checkpoint",
      prompt: live.prompt,
      initial: live.initial,
      captureFinal: async () => {
        // Initial objects first: files the agent has not changed are then already there, linked rather than stored again.
        await copySnapshotObjects(live.initial, live.evidenceDirectory, directory);
        return captureDirectory(live.workspace, directory, (data) => redactBytes(data, live.secrets), live.limits);
      },
      liveDatabase: live.databasePath,
      secrets: live.secrets,
      elapsedMs: Date.now() - live.startedAt,
    });
    return evidence;
  };
}
