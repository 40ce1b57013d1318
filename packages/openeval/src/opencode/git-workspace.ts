// A session's working directory: a git repository with one commit (of a copy of `source`, or empty), so that
// OpenCode's upward config/AGENTS.md walk stops at it and an agent can use git normally.
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { git } from "../util/git.ts";

/** `exclude`: root paths (git exclude patterns) the commit leaves out, e.g. a checkout seeded inside afterwards. */
export async function createGitWorkspace(
  target: string,
  source: string | null = null,
  options: { exclude?: string[]; overlays?: string[] } = {},
): Promise<string> {
  await mkdir(target, { recursive: true });
  if (source) await cp(source, target, { recursive: true, verbatimSymlinks: true });
  // Folders laid over the source in order (a case's files): they add files and replace those of the same path.
  for (const overlay of options.overlays ?? [])
    await cp(overlay, target, { recursive: true, verbatimSymlinks: true, force: true });
  await git(target, ["init", "--quiet", "--initial-branch=main"]);
  if (options.exclude?.length)
    await writeFile(join(target, ".git", "info", "exclude"), options.exclude.map((path) => `${path}\n`).join(""));
  await git(target, ["add", "--all"]);
  await git(target, ["commit", "--quiet", "--allow-empty", "--no-verify", "--message", "openeval: initial workspace"]);
  return target;
}
