// The runs a viewer serves: every run directory under one results folder, each read into a RunIndex on first use
// and re-read when its store's files change (checked at most every CHECK_EVERY_MS, so a busy page costs a stat).
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { findRun, RunNotFoundError, STORE_FILE } from "../records/index.ts";
import type { RunsAnswer } from "./api-types.ts";
import { readRunIndex, readRunRecord, toRunListItem, type RunIndex } from "./run-index.ts";
import { isLive, readStoreVersion } from "./store-version.ts";

const CHECK_EVERY_MS = 500;
/** Stores up to this size (a few hundred eval runs) are read whole just to be listed. */
const OPEN_EAGERLY_BYTES = 4 * 1024 * 1024;
/** A changed store is re-read at most this often relative to how long reading it took (10%: a 10,000-eval-run
 * store that takes 2 s to read is re-read at most every 20 s while a runner writes to it). */
const RELOAD_COST_SHARE = 10;

interface Cached {
  index: RunIndex;
  files: string;
  checkedAt: number;
  loadedAt: number;
  loadMs: number;
}

export class RunCatalog {
  private readonly cache = new Map<string, Cached>();

  private constructor(
    /** The results folder whose run directories are listed. */
    readonly root: string,
    private readonly preferredRunId: string | null,
  ) {}

  /** `run`: one run, a directory or an id under `resultsRoot` (its siblings are listed too); else every run under `resultsRoot`. */
  static open(options: { run?: string; resultsRoot: string }): RunCatalog {
    if (options.run) {
      const directory = findRun(dirname(resolve(options.resultsRoot)), options.run)!;
      return new RunCatalog(dirname(directory), basename(directory));
    }
    return new RunCatalog(resolve(options.resultsRoot), null);
  }

  /** Run ids, newest first (run ids sort by time). */
  runIds(): string[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(this.root, entry.name, STORE_FILE)))
      .map((entry) => entry.name)
      .sort()
      .reverse();
  }

  /** Runs already open, or small enough to open at once, come with their counts; large ones without, until opened. */
  listRuns(): RunsAnswer {
    const runs = this.runIds().flatMap((id) => {
      try {
        const directory = join(this.root, id);
        const small = statSync(join(directory, STORE_FILE)).size + storeWalBytes(directory) <= OPEN_EAGERLY_BYTES;
        return [this.cache.has(id) || small ? toRunListItem(this.index(id)) : readRunRecord(directory)];
      } catch {
        return []; // A run this openeval cannot read (another schema version) is left out, not fatal.
      }
    });
    const preferred =
      this.preferredRunId && runs.some((run) => run.id === this.preferredRunId) ? this.preferredRunId : null;
    return { runs, defaultRunId: preferred ?? runs[0]?.id ?? null };
  }

  /** The run's directory; null for an id that is not a run of this catalog (never a path outside it). */
  directory(runId: string): string | null {
    if (!this.runIds().includes(runId)) return null;
    return join(this.root, runId);
  }

  /** The next index() reads the run again: this process just changed it (a review from the page). */
  forget(runId: string): void {
    this.cache.delete(runId);
  }

  index(runId: string, now = Date.now()): RunIndex {
    const cached = this.cache.get(runId);
    if (cached && now - cached.checkedAt < CHECK_EVERY_MS) return cached.index;
    const directory = cached?.index.directory ?? this.directory(runId);
    if (!directory) throw new RunNotFoundError({ named: runId, runsUnder: this.root });
    const files = readStoreVersion(directory);
    // A runner that died leaves the files as they were: its heartbeat going stale is a change too.
    const stale = cached !== undefined && cached.index.overview.live && !isLive(cached.index.heartbeat, now);
    const tooSoon = cached !== undefined && now - cached.loadedAt < cached.loadMs * RELOAD_COST_SHARE;
    if (cached && ((cached.files === files && !stale) || tooSoon)) {
      cached.checkedAt = now;
      return cached.index;
    }
    const started = performance.now();
    const index = readRunIndex(directory);
    this.cache.set(runId, { index, files, checkedAt: now, loadedAt: now, loadMs: performance.now() - started });
    return index;
  }
}

function storeWalBytes(directory: string): number {
  try {
    return statSync(join(directory, `${STORE_FILE}-wal`)).size;
  } catch {
    return 0;
  }
}
