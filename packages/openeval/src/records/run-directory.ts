// Where runs live: `<benchmark>/results/<run-id>/`. `openeval run` resumes the latest run unless told --new.
import { existsSync, readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { STORE_FILE, StoreError } from "./store.ts";

export function resultsRoot(benchmarkDirectory: string): string {
  return join(benchmarkDirectory, "results");
}

/** Sortable by time: `2026-11-29T21-40-00.123Z-1a2b3c4d`. */
export function newRunId(now = new Date()): string {
  return `${now.toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}`;
}

export function findLatestRun(benchmarkDirectory: string): string | null {
  const root = resultsRoot(benchmarkDirectory);
  if (!existsSync(root)) return null;
  const runs = readdirSync(root)
    .filter((name) => existsSync(join(root, name, STORE_FILE)))
    .sort();
  return runs.length === 0 ? null : join(root, runs[runs.length - 1]!);
}

export interface RunDirectoryChoice {
  directory: string;
  created: boolean;
}

/** `run`: an explicit run directory; `fresh`: always a new run (--new); otherwise the latest, else a new one. */
export function chooseRunDirectory(benchmarkDirectory: string, options: { run?: string; new?: boolean }): RunDirectoryChoice {
  if (options.run && options.new) throw new StoreError("--run and --new contradict each other; pass one of them");
  if (options.run) {
    const directory = resolve(options.run);
    if (!existsSync(join(directory, STORE_FILE))) throw new StoreError(`${directory} is not a run directory (no ${STORE_FILE}); list runs under ${resultsRoot(benchmarkDirectory)}`);
    return { directory, created: false };
  }
  const latest = options.new ? null : findLatestRun(benchmarkDirectory);
  if (latest) return { directory: latest, created: false };
  return { directory: join(resultsRoot(benchmarkDirectory), newRunId()), created: true };
}
