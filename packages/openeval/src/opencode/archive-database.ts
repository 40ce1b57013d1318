// Turns a finished run's live native database into its archived form: one self-contained SQLite file (WAL folded
// in), credentials purged, secrets redacted, vacuumed so no old bytes survive, and the sha256 of what was written.
// snapshotDatabase does the same for a database OpenCode is still writing (earlyStop checkpoints).

import { Database } from "bun:sqlite";
import { copyFile, mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { sha256 } from "../util/hash.ts";
import { OpenCodeError } from "./errors.ts";
import { redactDatabase } from "./redact.ts";

export interface ArchiveRequest {
  /** The live database in scratch; the OpenCode process must have exited. */
  live: string;
  target: string;
  secrets: readonly string[];
}

export interface ArchivedDatabase {
  path: string;
  sha256: string;
  bytes: number;
}

/**
 * @example
 * const archived = await archiveDatabase({ live: outcome.databasePath, target: join(runDir, "opencode.db"), secrets });
 */
export async function archiveDatabase(request: ArchiveRequest): Promise<ArchivedDatabase> {
  await requireFile(request.live);
  checkpoint(request.live);
  await mkdir(dirname(request.target), { recursive: true });
  await rm(request.target, { force: true });
  await copyFile(request.live, request.target);
  // The copy's header still says WAL: a rollback journal keeps the archive one file, never -wal/-shm.
  execute(request.target, "PRAGMA journal_mode = DELETE");
  return seal(request);
}

/**
 * A consistent copy of a live database while OpenCode keeps writing it: `VACUUM INTO` reads one committed state
 * (WAL included) without blocking the writer, and never changes the live file.
 * @example const snapshot = await snapshotDatabase({ live: isolation.paths.database, target, secrets });
 */
export async function snapshotDatabase(request: ArchiveRequest): Promise<ArchivedDatabase> {
  await requireFile(request.live);
  await mkdir(dirname(request.target), { recursive: true });
  await rm(request.target, { force: true });
  const db = new Database(request.live, { readonly: true });
  try {
    db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.query("VACUUM INTO ?").run(request.target);
  } finally {
    db.close();
  }
  return seal(request);
}

/** How long a snapshot waits for OpenCode's own checkpoint of the WAL to finish. */
const BUSY_TIMEOUT_MS = 5_000;

/** Redacts, vacuums and hashes a single-file copy. */
async function seal(request: ArchiveRequest): Promise<ArchivedDatabase> {
  redactDatabase(request.target, request.secrets);
  // Rebuild the file so free pages (which may hold pre-redaction bytes) are gone.
  execute(request.target, "VACUUM");
  await Promise.all([rm(`${request.target}-wal`, { force: true }), rm(`${request.target}-shm`, { force: true })]);
  const bytes = await readFile(request.target);
  return { path: request.target, sha256: sha256(bytes), bytes: bytes.byteLength };
}

async function requireFile(path: string): Promise<void> {
  try {
    await stat(path);
  } catch (cause) {
    throw new OpenCodeError("liveDatabaseMissing", { path }, { cause });
  }
}

/** After a normal exit almost all data sits in `-wal`; TRUNCATE folds it into the main file. */
function checkpoint(path: string): void {
  const db = new Database(path, { readwrite: true, create: false });
  try {
    const result = db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
    if (result && result.busy !== 0) {
      throw new OpenCodeError("liveDatabaseBusy", { path });
    }
  } finally {
    db.close();
  }
}

/** Runs one statement on its own connection (journal-mode changes and VACUUM need no open transaction). */
function execute(path: string, sql: string): void {
  const db = new Database(path, { readwrite: true, create: false });
  try {
    db.run(sql);
  } finally {
    db.close();
  }
}
