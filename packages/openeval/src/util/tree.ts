// Walks a directory tree without following symlinks: the shared basis of workspace hashing (load), workspace
// snapshots (recording) and source stamps (input changes, the viewer). Symlinks that point outside the tree are
// reported, never followed. Reads are synchronous: an awaited lstat per file costs several times the time of
// a synchronous one, and a large benchmark's stamp reads thousands of files.
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";

const SLASH = Buffer.from("/");

/** `source` is what to open: `absolute`, or its bytes when a name in it is not UTF-8 (Linux allows any bytes). */
export type TreeEntry =
  | {
      kind: "file";
      path: string;
      absolute: string;
      source: string | Buffer;
      mode: number;
      bytes: number;
      mtimeMs: number;
    }
  | { kind: "symlink"; path: string; absolute: string; source: string | Buffer; target: string; escapes: boolean };

/**
 * Entries sorted by path; `exclude` names directories skipped wherever they occur (e.g. ".git"). FIFOs, sockets
 * and devices are never entries (reading one can block or never end); `special` collects their paths.
 */
export function walkTree(root: string, exclude: ReadonlySet<string> = new Set(), special?: string[]): TreeEntry[] {
  const entries: TreeEntry[] = [];
  // Names are read as bytes: one that is not UTF-8 is shown decoded (with U+FFFD) but opened by its bytes.
  function visit(directory: string, raw: string | Buffer): void {
    for (const bytes of readdirSync(raw, { encoding: "buffer" })) {
      const name = bytes.toString();
      const absolute = join(directory, name);
      const source =
        typeof raw === "string" && Buffer.from(name).equals(bytes)
          ? absolute
          : Buffer.concat([Buffer.from(raw), SLASH, bytes]);
      // Only `/` separates names: a backslash is part of a name (`x\..\y` is one file), never rewritten.
      const path = relative(root, absolute);
      const stats = lstatSync(source);
      if (stats.isDirectory()) {
        if (!exclude.has(name)) visit(absolute, source);
      } else if (stats.isSymbolicLink()) {
        const target = readlinkSync(source, "utf8");
        entries.push({
          kind: "symlink",
          path,
          absolute,
          source,
          target,
          escapes: symlinkEscapes(root, absolute, target),
        });
      } else if (stats.isFile()) {
        entries.push({
          kind: "file",
          path,
          absolute,
          source,
          mode: stats.mode & 0o777,
          bytes: stats.size,
          mtimeMs: stats.mtimeMs,
        });
      } else {
        special?.push(path);
      }
    }
  }
  visit(root, root);
  special?.sort();
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function symlinkEscapes(root: string, link: string, target: string): boolean {
  if (posix.isAbsolute(target)) return true;
  const resolved = resolve(dirname(link), target);
  const inside = relative(resolve(root), resolved);
  return inside === "" || inside.startsWith("..") || posix.isAbsolute(inside);
}
