// Telling that a run's store (or any file) changed without opening it: every commit a runner makes grows or rewrites
// store.db-wal (or, after a checkpoint, store.db), so their sizes and mtimes together are a cheap version stamp.
import { statSync } from "node:fs";
import { join } from "node:path";
import { STORE_FILE } from "../records/index.ts";

/** A runner beats every 2 s (run/recover.ts); one silent for longer than this is gone. */
const LIVE_WITHIN_MS = 10_000;

export function readStoreVersion(directory: string): string {
  const base = join(directory, STORE_FILE);
  return [base, `${base}-wal`].map(fileVersion).join("/");
}

/** A file's size and mtime ("-" when there is none): it changes whenever the file is written. */
export function fileVersion(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "-";
  }
}

export function isLive(heartbeat: { at: number } | null, now = Date.now()): boolean {
  return heartbeat !== null && now - heartbeat.at < LIVE_WITHIN_MS;
}
