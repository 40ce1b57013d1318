// Ties a child process to the runner's life: when the runner dies — even by SIGKILL, which runs no handler — the
// kernel sends the child SIGKILL, so an orphaned agent or code judge can never keep spending.
//
// How: util-linux `setpriv --pdeathsig SIGKILL` sets the parent-death signal on itself and then execs the command.
// The signal survives exec of a non-setuid binary, and `unshare --fork --kill-child` passes the same tie on to the
// PID namespace's first process, whose death takes the whole namespace. Linux fires it when the parent *thread*
// that spawned the child exits: Bun.spawn forks from the JS thread that calls it (the runner's main thread), which
// lives exactly as long as the runner. Without setpriv the command runs untied and crash recovery reaps it by marker.

import { spawnSync } from "node:child_process";

let setpriv: string | null | undefined;

/**
 * `setpriv --pdeathsig <signal>` when this machine has a setpriv that supports it, else nothing. Checked once.
 * SIGTERM (for a child that stops cleanly on it, such as `openeval run`) lets it record what it was doing.
 */
export function runnerTiePrefix(signal: "SIGKILL" | "SIGTERM" = "SIGKILL"): readonly string[] {
  setpriv ??= probeSetpriv();
  return setpriv === null ? [] : [setpriv, "--pdeathsig", signal];
}

/**
 * argv with the launcher in front: the child (and, through `unshare --kill-child`, its namespace) dies with us.
 * @example Bun.spawn(tieToRunner(["bun", "worker.ts"]))
 */
export function tieToRunner(argv: readonly string[], signal: "SIGKILL" | "SIGTERM" = "SIGKILL"): string[] {
  return [...runnerTiePrefix(signal), ...argv];
}

function probeSetpriv(): string | null {
  const path = Bun.which("setpriv");
  if (!path) return null;
  const probe = spawnSync(path, ["--pdeathsig", "SIGKILL", "true"], { stdio: "ignore", timeout: 5_000 });
  return probe.status === 0 ? path : null;
}
