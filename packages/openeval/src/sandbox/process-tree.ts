// Confines a command's process tree and kills all of it, including what the agent started: OpenCode's bash tool
// runs commands in their own session (setsid), so a process-group kill misses them and they outlive the run.

import { readdir, readFile } from "node:fs/promises";

/**
 * Preferred confinement: a PID namespace. When its first process (OpenCode) dies, the kernel kills every process
 * left in the namespace, however it was detached. `--kill-child` ties that first process to the wrapper, so killing
 * the wrapper is enough; `--mount-proc` gives the namespace its own /proc (the agent's `ps` sees only its tree).
 */
const PID_NAMESPACE_PREFIX = ["--pid", "--fork", "--kill-child", "--mount-proc"];

let namespaceSupport: Promise<string | null> | undefined;

/** The `unshare` binary when PID namespaces work here (root, or user namespaces allowed), else null. Checked once. */
export function detectPidNamespace(): Promise<string | null> {
  namespaceSupport ??= probePidNamespace();
  return namespaceSupport;
}

async function probePidNamespace(): Promise<string | null> {
  const unshare = Bun.which("unshare");
  if (!unshare) return null;
  try {
    const probe = Bun.spawn([unshare, ...PID_NAMESPACE_PREFIX, "true"], { stdio: ["ignore", "ignore", "ignore"] });
    return (await probe.exited) === 0 ? unshare : null;
  } catch {
    return null;
  }
}

export interface ConfinedCommand {
  argv: string[];
  /** "pid-namespace" or "proc-walk": how the tree will be killed (recorded for the run's logs). */
  confinement: "pid-namespace" | "proc-walk";
}

/**
 * Wraps argv in a PID namespace when available. Either way, pass a unique `marker` (as `NAME=value`) in the
 * command's environment and to killProcessTree: the fallback finds reparented strays by it.
 *
 * @example
 * const { argv } = await confineCommand(["opencode", "run"], { preferNamespace: true });
 */
export async function confineCommand(
  argv: string[],
  options: { preferNamespace?: boolean } = {},
): Promise<ConfinedCommand> {
  const unshare = options.preferNamespace === false ? null : await detectPidNamespace();
  if (!unshare) return { argv, confinement: "proc-walk" };
  return { argv: [unshare, ...PID_NAMESPACE_PREFIX, ...argv], confinement: "pid-namespace" };
}

export interface KillTarget {
  /** Root of the tree, while it is still alive (or a zombie not yet reaped). Omit after it has exited. */
  pid?: number;
  /** `NAME=value` present in the environment of every process of the run: catches strays that were reparented. */
  marker?: string;
}

/**
 * Kills the root, all its descendants and every process carrying the marker. Each found process is SIGSTOPped
 * first (so it cannot fork while we look), the search repeats until nothing new turns up, then all get SIGKILL,
 * leaves first.
 *
 * @example await killProcessTree({ pid: child.pid, marker: "OPENEVAL_RUN=3f2a…" });
 */
export async function killProcessTree(target: KillTarget): Promise<number[]> {
  const found: number[] = [];
  const seen = new Set<number>();
  for (let round = 0; round < 20; round++) {
    const fresh = (await findTree(target)).filter((pid) => !seen.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      seen.add(pid);
      found.push(pid);
      signal(pid, "SIGSTOP");
    }
  }
  for (const pid of [...found].reverse()) signal(pid, "SIGKILL");
  return found;
}

async function findTree(target: KillTarget): Promise<number[]> {
  const table = await readProcessTable(target.marker);
  const result: number[] = [];
  const queue: number[] = [];
  if (target.pid !== undefined && table.some((p) => p.pid === target.pid)) queue.push(target.pid);
  for (const p of table) if (p.marked) queue.push(p.pid);
  const inResult = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (inResult.has(pid) || pid === process.pid) continue;
    inResult.add(pid);
    result.push(pid);
    for (const child of table) if (child.ppid === pid) queue.push(child.pid);
  }
  return result;
}

interface ProcessInfo {
  pid: number;
  ppid: number;
  marked: boolean;
}

async function readProcessTable(marker: string | undefined): Promise<ProcessInfo[]> {
  const entries = await readdir("/proc");
  const table: ProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const ppid = await readParentPid(pid);
    if (ppid === null) continue; // exited while we looked
    const marked = marker ? await hasEnvironmentEntry(pid, marker) : false;
    table.push({ pid, ppid, marked });
  }
  return table;
}

async function readParentPid(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Format: "pid (comm) state ppid …"; comm may contain spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return null;
  }
}

async function hasEnvironmentEntry(pid: number, entry: string): Promise<boolean> {
  try {
    const environ = await readFile(`/proc/${pid}/environ`, "latin1");
    return environ.split("\0").includes(entry);
  } catch {
    return false; // gone, or not ours to read
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone: that is the goal.
  }
}
