// Workspace snapshots: every file with size and sha256, contents stored once under objects/<sha256>.
import { existsSync } from "node:fs";
import { copyFile, link, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256 } from "../util/hash.ts";
import { readChunks } from "../util/read-chunks.ts";
import { writeFileAtomic } from "../util/files.ts";
import { toSafeRelativePath } from "../util/relative-path.ts";
import { walkTree } from "../util/tree.ts";
import { DEFAULT_SNAPSHOT_LIMITS, type SnapshotLimits } from "../util/evidence-limits.ts";
import type { FileEntry, Snapshot } from "./schema.ts";

export const OBJECTS_DIRECTORY = "objects";

/** Directories never captured: the harness's own git repository and installed packages. */
const EXCLUDED = new Set([".git", "node_modules"]);

export async function writeBlob(evidenceDirectory: string, data: Uint8Array | string): Promise<string> {
  const hash = sha256(data);
  const path = join(evidenceDirectory, OBJECTS_DIRECTORY, hash);
  if (!existsSync(path)) await writeFileAtomic(path, data);
  return hash;
}

/**
 * Captures a workspace folder on disk. Symlinks are recorded with their target, never followed.
 * `redact` rewrites file contents before they are stored (e.g. to remove credentials an agent wrote to disk).
 * A file over `limits.maxFileBytes`, or one that would take the snapshot past `limits.maxSnapshotBytes`, is
 * recorded by size and sha256 (of its bytes on disk) with a note, and not copied: a candidate that writes 500 MB
 * must not put 500 MB into results/. `notCopied` are files of the folder that never reached this machine (a
 * container's copy-out hashed them past its cap): they are recorded by size and sha256 with their note.
 */
export async function captureDirectory(
  root: string,
  evidenceDirectory: string,
  redact: (data: Uint8Array) => Uint8Array = (data) => data,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
  notCopied: NotCopiedFile[] = [],
): Promise<Snapshot> {
  const entries = walkTree(root, EXCLUDED);
  const files: FileEntry[] = notCopied.map(({ note, ...file }) => ({
    kind: "file",
    ...file,
    omitted: { limit: "snapshot", note },
  }));
  let stored = 0;
  for (const entry of entries) {
    if (entry.kind === "symlink") {
      files.push({ kind: "symlink", path: entry.path, target: entry.target });
      continue;
    }
    const limit =
      entry.bytes > limits.maxFileBytes ? "file" : stored + entry.bytes > limits.maxSnapshotBytes ? "snapshot" : null;
    if (limit) {
      const note =
        limit === "file"
          ? `not copied: ${entry.bytes} bytes is over the ${limits.maxFileBytes}-byte per-file limit (benchmark.ts evidence.maxFileBytes)`
          : `not copied: the snapshot reached its ${limits.maxSnapshotBytes}-byte limit (benchmark.ts evidence.maxSnapshotBytes)`;
      files.push({
        kind: "file",
        path: entry.path,
        bytes: entry.bytes,
        sha256: await hashFile(entry.source),
        mode: entry.mode,
        omitted: { limit, note },
      });
      continue;
    }
    const data = redact(new Uint8Array(await readFile(entry.source)));
    stored += data.byteLength;
    files.push({
      kind: "file",
      path: entry.path,
      bytes: data.byteLength,
      sha256: await writeBlob(evidenceDirectory, data),
      mode: entry.mode,
    });
  }
  if (notCopied.length > 0) files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { capturedAt: new Date().toISOString(), files };
}

export interface NotCopiedFile {
  path: string;
  bytes: number;
  sha256: string;
  mode: number;
  /** Why it is not there, e.g. "not copied: past the candidate container's 4294967296-byte copy-out limit". */
  note: string;
}

/** sha256 of a file read in chunks, so an oversized file is never held in memory. */
async function hashFile(path: string | Buffer): Promise<string> {
  const hash = new Bun.CryptoHasher("sha256");
  for await (const chunk of readChunks(path)) hash.update(chunk);
  return hash.digest("hex");
}

/** Captures constructed files given as path → text. */
export async function captureFiles(contents: Record<string, string>, evidenceDirectory: string): Promise<Snapshot> {
  const files: FileEntry[] = [];
  for (const [rawPath, text] of Object.entries(contents)) {
    const data = new TextEncoder().encode(text);
    files.push({
      kind: "file",
      path: toSafeRelativePath(rawPath),
      bytes: data.byteLength,
      sha256: await writeBlob(evidenceDirectory, data),
      mode: 0o644,
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { capturedAt: new Date().toISOString(), files };
}

/**
 * Makes a snapshot captured into one evidence folder readable from another. Objects are hard-linked (they are
 * content-addressed and never rewritten, so sharing them costs no space), copied across file systems.
 */
export async function copySnapshotObjects(snapshot: Snapshot, fromEvidence: string, toEvidence: string): Promise<void> {
  await mkdir(join(toEvidence, OBJECTS_DIRECTORY), { recursive: true });
  for (const file of snapshot.files) {
    if (file.kind !== "file" || file.omitted) continue;
    const source = join(fromEvidence, OBJECTS_DIRECTORY, file.sha256);
    const target = join(toEvidence, OBJECTS_DIRECTORY, file.sha256);
    if (existsSync(target)) continue;
    await link(source, target).catch(() => copyFile(source, target));
  }
}
