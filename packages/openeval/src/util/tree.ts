// Walks a directory tree without following symlinks: the shared basis of workspace hashing (load), workspace
// snapshots (recording) and source stamps (input changes, the viewer). Symlinks that point outside the tree are
// reported, never followed. Reads are synchronous: an awaited lstat per file cost ~5× the time (a 10,000-file
// benchmark took ~480 ms to stamp, ~100 ms in sync reads; issue 18 §4).
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";

export type TreeEntry =
  | { kind: "file"; path: string; absolute: string; mode: number; bytes: number; mtimeMs: number }
  | { kind: "symlink"; path: string; absolute: string; target: string; escapes: boolean };

/**
 * Entries sorted by path; `exclude` names directories skipped wherever they occur (e.g. ".git"). FIFOs, sockets
 * and devices are never entries (reading one can block or never end); `special` collects their paths.
 */
export function walkTree(root: string, exclude: ReadonlySet<string> = new Set(), special?: string[]): TreeEntry[] {
  const entries: TreeEntry[] = [];
  function visit(directory: string): void {
    const children = readdirSync(directory, { withFileTypes: true });
    for (const child of children) {
      const absolute = join(directory, child.name);
      // Only `/` separates names: a backslash is part of a name (`x\..\y` is one file), never rewritten.
      const path = relative(root, absolute);
      if (child.isDirectory()) {
        if (!exclude.has(child.name)) visit(absolute);
      } else if (child.isSymbolicLink()) {
        const target = readlinkSync(absolute);
        entries.push({ kind: "symlink", path, absolute, target, escapes: symlinkEscapes(root, absolute, target) });
      } else if (child.isFile()) {
        const stats = lstatSync(absolute);
        entries.push({ kind: "file", path, absolute, mode: stats.mode & 0o777, bytes: stats.size, mtimeMs: stats.mtimeMs });
      } else {
        special?.push(path);
      }
    }
  }
  visit(root);
  special?.sort();
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function symlinkEscapes(root: string, link: string, target: string): boolean {
  if (posix.isAbsolute(target)) return true;
  const resolved = resolve(dirname(link), target);
  const inside = relative(resolve(root), resolved);
  return inside === "" || inside.startsWith("..") || posix.isAbsolute(inside);
}
