// An eval's starting workspace: its `workspace/` folder, validated (no symlink may point outside it) and tree-hashed
// for the candidate fingerprint; or eval.ts `workspace` (a git repository's commit, or revisions), identified by the
// commit or the revisions' trees, the overlay's tree and the layout.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256, fingerprint } from "../util/hash.ts";
import { walkTree } from "../util/tree.ts";
import type { EvalWorkspaceSettings } from "./schema.ts";

/** How to seed a checkout: folders (overlay, revisions' directories) are relative to the eval folder. */
export type GitWorkspace = Omit<EvalWorkspaceSettings, "repository"> & {
  /** The URL git fetches from: https as written, a local path as a file:// URL (depth 1 works only over a transport). */
  repository?: string;
};

export interface EvalWorkspace {
  /** Absolute path of the workspace folder, or null when the eval has none (an empty git repo). */
  directory: string | null;
  /** Tree hash over paths, modes, contents and symlink targets. */
  hash: string;
  fileCount: number;
  /** eval.ts `workspace`: the checkout to seed (then `directory` is null). */
  git: GitWorkspace | null;
}

export async function loadWorkspace(directory: string | null): Promise<EvalWorkspace> {
  if (directory === null) return { directory, hash: fingerprint([]), fileCount: 0, git: null };
  const special: string[] = [];
  const entries = walkTree(directory, new Set([".git"]), special);
  if (special.length > 0) {
    throw new Error(
      `has FIFOs, sockets or device files (${special.join(", ")}), which cannot be copied into a workspace; remove them`,
    );
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
  return { directory, hash: fingerprint(hashed), fileCount: entries.length, git: null };
}

/**
 * eval.ts `workspace`. The source repository's location is not part of the identity (a clone elsewhere is the same
 * commit); the commit, the revisions' trees and messages, the overlay's tree and the layout are.
 */
export async function loadGitWorkspace(settings: EvalWorkspaceSettings, evalDirectory: string): Promise<EvalWorkspace> {
  const tree = async (folder: string) => {
    if (!existsSync(join(evalDirectory, folder)))
      throw new Error(`names the folder ${folder}, which the eval does not have; create it or correct the path`);
    return (await loadWorkspace(join(evalDirectory, folder))).hash;
  };
  const { repository, ...layout } = settings;
  const revisions = settings.revisions
    ? await Promise.all(
        settings.revisions.map(async (revision) => ({ ...revision, tree: await tree(revision.directory) })),
      )
    : null;
  const hash = fingerprint({
    layout: { ...layout, revisions },
    overlay: settings.overlay ? await tree(settings.overlay) : null,
  });
  const git: GitWorkspace =
    repository === undefined ? layout : { ...layout, repository: fetchURL(repository, evalDirectory) };
  return { directory: null, hash, fileCount: 0, git };
}

function fetchURL(repository: string, evalDirectory: string): string {
  if (/^(https|file):\/\//.test(repository)) return repository;
  return pathToFileURL(isAbsolute(repository) ? repository : resolve(evalDirectory, repository)).href;
}
