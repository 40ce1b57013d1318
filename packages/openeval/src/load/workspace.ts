// An eval's starting workspace (`evals/<id>/workspace/`): validated (no symlink may point outside it) and
// tree-hashed for the candidate fingerprint.
import { readFile } from "node:fs/promises";
import { sha256, fingerprint } from "../util/hash.ts";
import { walkTree } from "../util/tree.ts";

export interface EvalWorkspace {
  /** Absolute path of the workspace folder, or null when the eval has none (an empty git repo). */
  directory: string | null;
  /** Tree hash over paths, modes, contents and symlink targets. */
  hash: string;
  fileCount: number;
}

export async function loadWorkspace(directory: string | null): Promise<EvalWorkspace> {
  if (directory === null) return { directory, hash: fingerprint([]), fileCount: 0 };
  const special: string[] = [];
  const entries = await walkTree(directory, new Set([".git"]), special);
  if (special.length > 0) {
    throw new Error(`has FIFOs, sockets or device files (${special.join(", ")}), which cannot be copied into a workspace; remove them`);
  }
  const escaping = entries.filter((entry) => entry.kind === "symlink" && entry.escapes);
  if (escaping.length > 0) {
    const names = escaping.map((entry) => (entry.kind === "symlink" ? `${entry.path} -> ${entry.target}` : entry.path));
    throw new Error(`has symlinks pointing outside the workspace (${names.join(", ")}); copy the files in instead`);
  }
  const hashed = await Promise.all(
    entries.map(async (entry) =>
      entry.kind === "file"
        ? [entry.path, entry.mode, sha256(await readFile(entry.absolute))]
        : [entry.path, "symlink", entry.target],
    ),
  );
  return { directory, hash: fingerprint(hashed), fileCount: entries.length };
}
