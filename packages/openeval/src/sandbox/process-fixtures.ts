// Test fixture: a snapshot of this machine's processes (argv and working dir), to prove what a kill left behind.

import { readdir, readFile, readlink } from "node:fs/promises";

export interface ProcessSnapshot {
  pid: number;
  argv: string[];
  cwd: string | null;
}

export async function listProcesses(): Promise<ProcessSnapshot[]> {
  const found: ProcessSnapshot[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = (await readFile(`/proc/${entry}/cmdline`, "utf8")).split("\0");
      const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => null);
      found.push({ pid: Number(entry), argv, cwd });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** PIDs of `sleep <args…>` processes, optionally only those running in `cwd`. */
export async function findSleeps(args: string[], cwd?: string): Promise<number[]> {
  const isMatch = (p: ProcessSnapshot) =>
    (p.argv[0]?.endsWith("sleep") ?? false) &&
    args.every((arg, i) => p.argv[i + 1] === arg) &&
    (cwd === undefined || p.cwd === cwd);
  return (await listProcesses()).filter(isMatch).map((p) => p.pid);
}
