// Running git for the harness's own repositories (a session's workspace, a seeded checkout): a pinned identity and
// dates so the same inputs make the same commits, and nothing from the user's or the system's git config.

const GIT_ENVIRONMENT = {
  GIT_AUTHOR_NAME: "openeval",
  GIT_AUTHOR_EMAIL: "openeval@localhost",
  GIT_COMMITTER_NAME: "openeval",
  GIT_COMMITTER_EMAIL: "openeval@localhost",
  // Pinned dates: the initial commit (and so OpenCode's project id) is the same for the same files.
  GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
};

/** Runs git in `cwd`; returns its trimmed stdout, throws with its stderr. `env` overrides the identity. */
export async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = Bun.spawn(["git", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, ...GIT_ENVIRONMENT, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (exitCode !== 0)
    throw new Error(`git ${args[0]} failed in ${cwd} (exit ${exitCode}): ${stderr.trim()}; is git installed?`);
  return stdout.trim();
}
