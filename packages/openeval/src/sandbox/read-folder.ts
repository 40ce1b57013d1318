// Copying in and out of a process sandbox: tar entries written under a folder (paths that would leave it are
// refused), a folder read as tar entries (to copy it into a container), and a file or folder copied out to disk
// through the same TreeWriter the container engine streams into.
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile, chmod } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { readChunks } from "../util/read-chunks.ts";
import { toSafeRelativePath } from "../util/relative-path.ts";
import type { CopyOutResult } from "./sandbox.ts";
import type { ReadTarEntry, TarEntry } from "./tar.ts";
import { writeTree, type TreeWriter } from "./tree-writer.ts";

const SLASH = Buffer.from("/");

/** Owners are not applied: every file belongs to the current user, as every command runs as that user. */
export async function writeEntries(folder: string, entries: TarEntry[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const entry of entries) {
    const target = join(folder, toSafeRelativePath(entry.path));
    await mkdir(dirname(target), { recursive: true });
    if (entry.type === "directory") {
      await mkdir(target, { recursive: true });
      if (entry.mode !== undefined) await chmod(target, entry.mode);
    } else if (entry.type === "symlink") {
      await symlink(entry.target, target);
    } else {
      await writeFile(target, entry.data, { mode: entry.mode ?? 0o644 });
      if (entry.mode !== undefined) await chmod(target, entry.mode);
    }
  }
}

/**
 * Copies a file or folder to `target`, as the container engine's copy-out does: hard links stay links, sparse files
 * stay sparse, a single file over the cap is refused by its size before anything is copied.
 */
export async function copyTree(path: string, target: string, maxBytes: number): Promise<CopyOutResult> {
  const top = await lstat(path).catch(() => null);
  if (top === null) return { kind: "missing" };
  if (top.isFile() && top.size > maxBytes) return { kind: "over-limit", bytes: top.size, directory: false };
  /** dev:inode of each multiply-linked file copied → its names, so the next name becomes a link to it. */
  const linked = new Map<string, string[]>();
  // Opened by their bytes: a name that is not UTF-8 is still copied (under its decoded name, as the engine's does).
  const visit = async (writer: TreeWriter, file: Buffer, names: string[]): Promise<void> => {
    const info = await lstat(file);
    if (info.isSymbolicLink()) return writer.symlink(names, await readlink(file, "utf8"));
    if (info.isDirectory()) {
      await writer.directory(names, info.mode);
      for (const child of (await readdir(file, { encoding: "buffer" })).sort(Buffer.compare)) await visit(writer, Buffer.concat([file, SLASH, child]), [...names, child.toString()]);
      return;
    }
    if (!info.isFile()) return writer.skip(names, "not a file, folder or link");
    const key = `${info.dev}:${info.ino}`;
    const first = info.nlink > 1 ? linked.get(key) : undefined;
    if (first) return writer.hardlink(names, first);
    if (info.nlink > 1) linked.set(key, names);
    await writer.file(names, info.mode, info.size, readChunks(file));
  };
  return writeTree(target, maxBytes, top.isDirectory(), (writer) => visit(writer, Buffer.from(path), []));
}

/** Names are relative to the path's parent (`workspace/a.txt` for /workspace), like the engine's archive API. */
export async function readTree(path: string, maxBytes: number): Promise<Exclude<CopyOutResult, { kind: "copied" }> | { kind: "copied"; entries: ReadTarEntry[] }> {
  const top = await lstat(path).catch(() => null);
  if (top === null) return { kind: "missing" };
  const entries: ReadTarEntry[] = [];
  let bytes = 0;
  const visit = async (file: string, name: string): Promise<boolean> => {
    const info = await lstat(file);
    const mode = info.mode & 0o7777;
    if (info.isSymbolicLink()) entries.push({ type: "symlink", path: name, mode, size: 0, target: await readlink(file), data: new Uint8Array(0) });
    else if (info.isDirectory()) {
      entries.push({ type: "directory", path: `${name}/`, mode, size: 0, target: "", data: new Uint8Array(0) });
      for (const child of (await readdir(file)).sort()) if (!(await visit(join(file, child), `${name}/${child}`))) return false;
    } else if (info.isFile()) {
      bytes += info.size;
      if (bytes > maxBytes) return false;
      entries.push({ type: "file", path: name, mode, size: info.size, target: "", data: new Uint8Array(await readFile(file)) });
    }
    return true;
  };
  if (!(await visit(path, basename(path)))) return { kind: "over-limit", bytes: top.isDirectory() ? null : top.size, directory: top.isDirectory() };
  return { kind: "copied", entries };
}
