// What is copied into a verification container: the workspace snapshot (owned by the container's user, so its
// commands can write there) and the judge's check files (owned by root, read-only to the commands).
import { posix } from "node:path";
import type { FileEntry, Revision } from "../../recording/index.ts";
import type { TarEntry } from "../../sandbox/index.ts";

/** The part of a verified recording that verification reads: hash-checked files of one snapshot. */
export interface SnapshotReader {
  files(revision: Revision): FileEntry[];
  read(path: string, revision: Revision): Promise<Uint8Array>;
}

export interface Owner {
  uid: number;
  gid: number;
}

/** The snapshot's folders, files and symlinks; the caller sets the owner (the container's user). */
export async function workspaceEntries(evidence: SnapshotReader, revision: Revision): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const files = evidence.files(revision);
  for (const directory of parentDirectories(files.map((file) => file.path)))
    entries.push({ type: "directory", path: directory, mode: 0o755 });
  for (const file of files) {
    if (file.kind === "symlink") entries.push({ type: "symlink", path: file.path, target: file.target });
    // Recorded by size and hash only (over a snapshot limit): nothing to restore.
    else if (file.omitted) continue;
    // The owner may always read and write its files; setuid/setgid/sticky bits never enter the container.
    else
      entries.push({
        type: "file",
        path: file.path,
        data: await evidence.read(file.path, revision),
        mode: (file.mode & 0o777) | 0o600,
      });
  }
  return entries;
}

export function withOwner(entries: TarEntry[], owner: Owner): TarEntry[] {
  return entries.map((entry) => ({ ...entry, ...owner }));
}

export function checkFileEntries(files: Record<string, string>): TarEntry[] {
  const encoder = new TextEncoder();
  const root = { uid: 0, gid: 0 };
  const paths = Object.keys(files);
  return [
    ...parentDirectories(paths).map((path): TarEntry => ({ type: "directory", path, mode: 0o755, ...root })),
    ...paths.map(
      (path): TarEntry => ({ type: "file", path, data: encoder.encode(files[path]!), mode: 0o644, ...root }),
    ),
  ];
}

function parentDirectories(paths: string[]): string[] {
  const directories = new Set<string>();
  for (const path of paths) {
    for (let parent = posix.dirname(path); parent !== "." && parent !== "/"; parent = posix.dirname(parent))
      directories.add(parent);
  }
  return [...directories].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
}
