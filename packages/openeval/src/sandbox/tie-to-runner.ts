// Ties a child process to the runner's life: when the runner dies — even by SIGKILL, which runs no handler — the
// kernel sends the child SIGKILL, so an orphaned agent or code judge can never keep spending.
//
// How: util-linux `setpriv --pdeathsig SIGKILL` sets the parent-death signal on itself and then execs the command.
// The signal survives exec of a non-setuid binary, and `unshare --fork --kill-child` passes the same tie on to the
// PID namespace's first process, whose death takes the whole namespace. Linux fires it when the parent *thread*
// that spawned the child exits: Bun.spawn forks from the JS thread that calls it (the runner's main thread), which
// lives exactly as long as the runner. Without setpriv the command runs untied and crash recovery reaps it by marker.

import { spawnSync } from "node:child_process";

let launcher: string[] | undefined;

/** `setpriv --pdeathsig SIGKILL` when this machine has a setpriv that supports it, else nothing. Checked once. */
export function runnerTiePrefix(): readonly string[] {
  launcher ??= probeSetpriv();
  return launcher;
}

/**
 * argv with the launcher in front: the child (and, through `unshare --kill-child`, its namespace) dies with us.
 * @example Bun.spawn(tieToRunner(["bun", "worker.ts"]))
 */
export function tieToRunner(argv: readonly string[]): string[] {
  return [...runnerTiePrefix(), ...argv];
}

function probeSetpriv(): string[] {
  const setpriv = Bun.which("setpriv");
  if (!setpriv) return [];
  const prefix = [setpriv, "--pdeathsig", "SIGKILL"];
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), "true"], { stdio: "ignore", timeout: 5_000 });
  return probe.status === 0 ? prefix : [];
}
