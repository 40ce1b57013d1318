// A folder of this machine read as tar entries, to copy it into a sandbox (a candidate's scratch folder into its
// container), bounded by the sum of its file sizes.
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { basename, join } from "node:path";
import type { CopyOutResult } from "./sandbox.ts";
import type { ReadTarEntry } from "./tar.ts";

/** Names are relative to the path's parent (`workspace/a.txt` for /workspace), like the engine's archive API. */
export async function readTree(
  path: string,
  maxBytes: number,
): Promise<Exclude<CopyOutResult, { kind: "copied" }> | { kind: "copied"; entries: ReadTarEntry[] }> {
  const top = await lstat(path).catch(() => null);
  if (top === null) return { kind: "missing" };
  const entries: ReadTarEntry[] = [];
  let bytes = 0;
  const visit = async (file: string, name: string): Promise<boolean> => {
    const info = await lstat(file);
    const mode = info.mode & 0o7777;
    if (info.isSymbolicLink())
      entries.push({
        type: "symlink",
        path: name,
        mode,
        size: 0,
        target: await readlink(file),
        data: new Uint8Array(0),
      });
    else if (info.isDirectory()) {
      entries.push({ type: "directory", path: `${name}/`, mode, size: 0, target: "", data: new Uint8Array(0) });
      for (const child of (await readdir(file)).sort())
        if (!(await visit(join(file, child), `${name}/${child}`))) return false;
    } else if (info.isFile()) {
      bytes += info.size;
      if (bytes > maxBytes) return false;
      entries.push({
        type: "file",
        path: name,
        mode,
        size: info.size,
        target: "",
        data: new Uint8Array(await readFile(file)),
      });
    }
    return true;
  };
  if (!(await visit(path, basename(path))))
    return { kind: "over-limit", bytes: top.isDirectory() ? null : top.size, directory: top.isDirectory() };
  return { kind: "copied", entries };
}
