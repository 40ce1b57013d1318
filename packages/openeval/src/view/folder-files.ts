// Files of a run's own folders that are not evidence (judge archives, process logs, verification artifacts):
// listed with a kind, read with a size bound, and never by a path that leaves the folder.
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { toSafeRelativePath } from "../util/relative-path.ts";
import type { FileInfo, FileText } from "./api-types.ts";

/** Larger text files are shown cut; the raw file is still served whole. */
export const MAX_TEXT_BYTES = 512 * 1024;
const MAX_LISTED = 5_000;

export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
};
const BINARY_EXTENSIONS = new Set([".db", ".sqlite", ".wasm", ".zip", ".gz", ".tar", ".pdf", ".bin"]);

export function fileKind(path: string): FileInfo["kind"] {
  const extension = extname(path).toLowerCase();
  if (extension in IMAGE_TYPES) return "image";
  if (BINARY_EXTENSIONS.has(extension) || /\.db-(wal|shm)$/.test(path)) return "binary";
  return "text";
}

/** Every file under `root`, paths relative with forward slashes, sorted. */
export function listFolder(root: string): FileInfo[] {
  if (!existsSync(root)) return [];
  const files: FileInfo[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files.length >= MAX_LISTED) return;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const name = relative(root, path).split(sep).join("/");
        files.push({ path: name, bytes: statSync(path).size, kind: fileKind(name) });
      }
    }
  };
  walk(root);
  return files;
}

/** The absolute path of `path` inside `root`; throws UnsafePathError for one that would leave it. */
export function resolveInside(root: string, path: string): string {
  return join(root, toSafeRelativePath(path));
}

export async function readFolderText(root: string, path: string): Promise<FileText | null> {
  const file = resolveInside(root, path);
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  return toFileText(path, new Uint8Array(await readFile(file)));
}

export function toFileText(path: string, data: Uint8Array): FileText {
  if (fileKind(path) !== "text" || data.subarray(0, 8_000).includes(0))
    return { path, text: null, bytes: data.length, truncated: false };
  const truncated = data.length > MAX_TEXT_BYTES;
  const text = new TextDecoder().decode(truncated ? data.subarray(0, MAX_TEXT_BYTES) : data);
  return { path, text, bytes: data.length, truncated };
}
