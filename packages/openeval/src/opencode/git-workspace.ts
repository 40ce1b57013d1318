// A session's working directory: a git repository with one commit (of a copy of `source`, or empty), so that
// OpenCode's upward config/AGENTS.md walk stops at it (probe §2) and an agent can use git normally.
import { cp, mkdir } from "node:fs/promises";

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "openeval",
  GIT_AUTHOR_EMAIL: "openeval@localhost",
  GIT_COMMITTER_NAME: "openeval",
  GIT_COMMITTER_EMAIL: "openeval@localhost",
  // Pinned dates: the initial commit (and so OpenCode's project id) is the same for the same files.
  GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export async function createGitWorkspace(target: string, source: string | null = null): Promise<string> {
  await mkdir(target, { recursive: true });
  if (source) await cp(source, target, { recursive: true, verbatimSymlinks: true });
  await git(target, ["init", "--quiet", "--initial-branch=main"]);
  await git(target, ["add", "--all"]);
  await git(target, ["commit", "--quiet", "--allow-empty", "--no-verify", "--message", "openeval: initial workspace"]);
  return target;
}

async function git(cwd: string, args: string[]): Promise<void> {
  const child = Bun.spawn(["git", ...args], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, ...GIT_IDENTITY }, stdout: "ignore", stderr: "pipe" });
  const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`git ${args[0]} failed in ${cwd} (exit ${exitCode}): ${stderr.trim()}; is git installed?`);
}
