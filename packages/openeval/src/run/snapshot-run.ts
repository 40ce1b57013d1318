// snapshotRun(): freeze a run's active scores to `<run>/maintenance/snapshots/<name>.json`, as `openeval snapshot`
// (OpenEval's layout): the slots with the eval and judge runs they use, and the scores and verdict readResults
// gives now, under a hash of all of it. A snapshot is never overwritten; the run's records are only read.
import { linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { toSlotKey } from "../records/index.ts";
import { RunMaintenanceError } from "../results/index.ts";
import { fingerprint } from "../util/hash.ts";
import { readScoredRun } from "../summary/index.ts";

export const SNAPSHOTS_DIRECTORY = join("maintenance", "snapshots");
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface RunSnapshot {
  path: string;
  hash: string;
  slots: number;
}

/**
 * @example
 * const { path, hash } = await snapshotRun("./results/2026-12-01T10-00-00.000Z-1a2b3c4d", "before-prompt-change");
 */
export async function snapshotRun(runDirectory: string, name: string): Promise<RunSnapshot> {
  if (!SNAPSHOT_NAME.test(name) || name.includes("..")) {
    throw new RunMaintenanceError("snapshotNameInvalid", { name });
  }
  const directory = resolve(runDirectory);
  const path = join(directory, SNAPSHOTS_DIRECTORY, `${name}.json`);
  const { run, summary, slots } = await readScoredRun(directory);
  const active = slots.filter((slot) => slot.evalRun !== null);
  const payload = {
    version: 1,
    name,
    capturedAt: new Date().toISOString(),
    run,
    slots: active.map((slot) => ({
      ...toSlotKey(slot),
      action: slot.action,
      candidateFingerprint: slot.candidateFingerprint,
      judgeFingerprint: slot.judgeFingerprint,
      evalRunId: slot.evalRun!.id,
      judgeRunId: slot.judgeRun?.id ?? null,
    })),
    evalRuns: active.map((slot) => slot.evalRun!),
    judgeRuns: active.flatMap((slot) => (slot.judgeRun ? [slot.judgeRun] : [])),
    scores: { models: summary.models, verdict: summary.verdict, complete: summary.complete },
  };
  const hash = fingerprint(payload);
  mkdirSync(join(directory, SNAPSHOTS_DIRECTORY), { recursive: true });
  // Written whole, then linked into place: a kill mid-write leaves no half snapshot holding the name, and a link
  // (unlike a rename) refuses a name that exists.
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify({ hash, payload }, null, 2)}\n`);
  try {
    linkSync(partial, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new RunMaintenanceError("snapshotExists", { name, path });
    throw error;
  } finally {
    rmSync(partial, { force: true });
  }
  return { path, hash, slots: active.length };
}
