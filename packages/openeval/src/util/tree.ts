// Walks a directory tree without following symlinks: the shared basis of workspace hashing (load) and
// workspace snapshots (recording). Symlinks that point outside the tree are reported, never followed.
import { lstat, readdir, readlink } from "node:fs/promises";
import { dirname, join, posix, relative, resolve } from "node:path";

export type TreeEntry =
  | { kind: "file"; path: string; absolute: string; mode: number; bytes: number }
  | { kind: "symlink"; path: string; absolute: string; target: string; escapes: boolean };

/**
 * Entries sorted by path; `exclude` names directories skipped wherever they occur (e.g. ".git"). FIFOs, sockets
 * and devices are never entries (reading one can block or never end); `special` collects their paths.
 */
export async function walkTree(root: string, exclude: ReadonlySet<string> = new Set(), special?: string[]): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  async function visit(directory: string): Promise<void> {
    const children = await readdir(directory, { withFileTypes: true });
    for (const child of children) {
      const absolute = join(directory, child.name);
      const path = relative(root, absolute).split("\\").join("/");
      if (child.isDirectory()) {
        if (!exclude.has(child.name)) await visit(absolute);
      } else if (child.isSymbolicLink()) {
        const target = await readlink(absolute);
        entries.push({ kind: "symlink", path, absolute, target, escapes: symlinkEscapes(root, absolute, target) });
      } else if (child.isFile()) {
        const stats = await lstat(absolute);
        entries.push({ kind: "file", path, absolute, mode: stats.mode & 0o777, bytes: stats.size });
      } else {
        special?.push(path);
      }
    }
  }
  await visit(root);
  special?.sort();
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function symlinkEscapes(root: string, link: string, target: string): boolean {
  if (posix.isAbsolute(target)) return true;
  const resolved = resolve(dirname(link), target);
  const inside = relative(resolve(root), resolved);
  return inside === "" || inside.startsWith("..") || posix.isAbsolute(inside);
}
