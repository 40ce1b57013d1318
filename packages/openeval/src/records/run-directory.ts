// Where runs live: `<benchmark>/results/<run-id>/`. `openeval run` resumes the latest run unless told --new.
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { RunNotFoundError, StoreError } from "./errors.ts";
import { STORE_FILE } from "./store.ts";

export function resultsRoot(benchmarkDirectory: string): string {
  return join(benchmarkDirectory, "results");
}

/** Sortable by time: `2026-11-29T21-40-00.123Z-1a2b3c4d`. */
export function newRunId(now = new Date()): string {
  return `${now.toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}`;
}

export function findLatestRun(benchmarkDirectory: string): string | null {
  const latest = listRunIds(benchmarkDirectory).at(-1);
  return latest === undefined ? null : join(resultsRoot(benchmarkDirectory), latest);
}

/** The ids of the benchmark's recorded runs (folders of results/ that hold a store), oldest first. */
export function listRunIds(benchmarkDirectory: string): string[] {
  const root = resultsRoot(benchmarkDirectory);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, STORE_FILE)))
    .sort();
}

/**
 * Which run is meant, wherever one is named (the CLI, the viewer, the library): `run` as a run directory, else as a run
 * id under the benchmark's results/; none named, the latest run, or null when the benchmark has none yet.
 * @throws RunNotFoundError when `run` is neither
 * @example findRun(".", "2026-11-29T21-40-00.123Z-1a2b3c4d") // "/abs/benchmark/results/2026-11-29T21-40-00.123Z-1a2b3c4d"
 */
export function findRun(benchmarkDirectory: string, run?: string): string | null {
  const root = resultsRoot(resolve(benchmarkDirectory));
  if (run === undefined) return findLatestRun(resolve(benchmarkDirectory));
  for (const candidate of [resolve(run), join(root, run)])
    if (existsSync(join(candidate, STORE_FILE))) return candidate;
  throw new RunNotFoundError({ named: run, runsUnder: root });
}

/** findRun where there must be a run: none named and none recorded yet is an error that says how to make one. */
export function resolveRun(benchmarkDirectory: string, run?: string): string {
  const found = findRun(benchmarkDirectory, run);
  if (found === null) throw new RunNotFoundError({ noneUnder: resultsRoot(resolve(benchmarkDirectory)) });
  return found;
}

export interface RunDirectoryChoice {
  directory: string;
  created: boolean;
}

/** `run`: an explicit run directory; `fresh`: always a new run (--new); otherwise the latest, else a new one. */
export function chooseRunDirectory(
  benchmarkDirectory: string,
  options: { run?: string; new?: boolean },
): RunDirectoryChoice {
  if (options.run && options.new) throw new StoreError("runAndNew");
  if (options.run) return { directory: resolveRun(benchmarkDirectory, options.run), created: false };
  const latest = options.new ? null : findLatestRun(benchmarkDirectory);
  if (latest) return { directory: latest, created: false };
  return { directory: join(resultsRoot(benchmarkDirectory), newRunId()), created: true };
}

/**
 * Runs `work` (choosing the run and, for a new one, creating and claiming it) holding an exclusive lock on the
 * benchmark's results/ folder: flock(2) on the folder itself, so no lock file appears among the runs, another
 * runner doing the same waits, and the system releases the lock when its holder dies. Of two runners started at once
 * on a benchmark with no run, the second then finds the first's run.
 */
export function whileCreatingRun<T>(benchmarkDirectory: string, work: () => T): T {
  const root = resultsRoot(benchmarkDirectory);
  mkdirSync(root, { recursive: true });
  const folder = openSync(root, "r");
  try {
    if (flock(folder, LOCK_EX) !== 0) throw new StoreError("cannotLock", { root });
    return work();
  } finally {
    closeSync(folder); // releases the lock
  }
}

const LOCK_EX = 2;
let libc: ReturnType<typeof openLibc> | null = null;
function openLibc() {
  return dlopen(process.platform === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  });
}
function flock(fd: number, operation: number): number {
  libc ??= openLibc();
  return libc.symbols.flock(fd, operation);
}
