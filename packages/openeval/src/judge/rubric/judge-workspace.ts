// The judge session's working directory: an empty git repository, so OpenCode's upward config/AGENTS.md walk stops
// there (probe §2.3). The judge reads evidence only through its tools, never from this directory.
import { mkdir } from "node:fs/promises";

const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_AUTHOR_NAME: "openeval",
  GIT_AUTHOR_EMAIL: "openeval@localhost",
  GIT_COMMITTER_NAME: "openeval",
  GIT_COMMITTER_EMAIL: "openeval@localhost",
  GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export async function createJudgeWorkspace(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  for (const args of [["init", "--quiet", "--initial-branch=main"], ["commit", "--quiet", "--allow-empty", "--no-verify", "--message", "openeval judge"]]) {
    const child = Bun.spawn(["git", ...args], { cwd: directory, env: { ...GIT_ENV, HOME: directory }, stdout: "ignore", stderr: "pipe" });
    const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    if (exitCode !== 0) throw new Error(`git ${args[0]} failed in ${directory} (exit ${exitCode}): ${stderr.trim()}`);
  }
  return directory;
}
