// Scratch folders (`/tmp/openeval-*`) that know their owner: each holds an `.owner` file with the creating
// process's pid and start time, so that any later run can remove the ones whose owner died (a SIGKILLed runner or
// code-judge worker runs no cleanup), and a runner that must exit at once can remove its own synchronously.
// A pid means something only inside its PID namespace: the owner file names that namespace, and a reaper in another
// one (a runner inside `unshare --pid --mount-proc`, an agent's tool server) leaves the folder alone.
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SCRATCH_PREFIX = "openeval-";
const OWNER_FILE = ".owner";
const own = new Set<string>();

/**
 * A new `/tmp/openeval-<name>-XXXXXX` folder owned by this process; remove it with removeScratchDir.
 * @example const scratch = await createScratchDir(`judge-${judgeRunId}`);
 */
export async function createScratchDir(name: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `${SCRATCH_PREFIX}${name}-`));
  own.add(directory);
  const owner: Owner = { pid: process.pid, start: processStart(process.pid), pidNamespace: ownPidNamespace() };
  writeFileSync(join(directory, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  return directory;
}

export async function removeScratchDir(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true, maxRetries: 3 });
  own.delete(directory);
}

/** For an exit that cannot wait (a forced stop): removes every scratch folder this process still holds. */
export function removeOwnScratchDirsSync(): void {
  for (const directory of own) rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
  own.clear();
}

/**
 * Removes scratch folders whose owner process is gone (or whose pid now belongs to another process). Folders
 * without an owner file (other tools, older versions), those of live owners and those whose owner lives in another
 * PID namespace (its pid cannot be checked from here) are left alone. Returns what it removed.
 */
export function reapOrphanedScratchDirs(root = tmpdir()): string[] {
  const removed: string[] = [];
  const namespace = ownPidNamespace();
  for (const entry of readdirSync(root)) {
    if (!entry.startsWith(SCRATCH_PREFIX)) continue;
    const directory = join(root, entry);
    const owner = readOwner(directory);
    if (owner === null || !sameNamespace(owner, namespace) || isRunning(owner)) continue;
    rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
    removed.push(directory);
  }
  return removed;
}

interface Owner {
  pid: number;
  start: string | null;
  /** `/proc/self/ns/pid` of the owner, e.g. `pid:[4026531836]`; null where it cannot be read. */
  pidNamespace: string | null;
}

function readOwner(directory: string): Owner | null {
  const file = join(directory, OWNER_FILE);
  if (!existsSync(file)) return null;
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as Partial<Owner>;
    if (typeof owner.pid !== "number") return null;
    const start = typeof owner.start === "string" ? owner.start : null;
    return { pid: owner.pid, start, pidNamespace: typeof owner.pidNamespace === "string" ? owner.pidNamespace : null };
  } catch {
    return null; // being written right now: its owner is alive
  }
}

/** Owner files written before namespaces were recorded are judged by their pid, as they always were. */
function sameNamespace(owner: Owner, namespace: string | null): boolean {
  return owner.pidNamespace === null || owner.pidNamespace === namespace;
}

function isRunning(owner: Owner): boolean {
  const start = processStart(owner.pid);
  return start !== null && (owner.start === null || owner.start === start);
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot): tells a reused pid from its first owner. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

let pidNamespace: string | null | undefined;
function ownPidNamespace(): string | null {
  if (pidNamespace === undefined) {
    try {
      pidNamespace = readlinkSync("/proc/self/ns/pid");
    } catch {
      pidNamespace = null;
    }
  }
  return pidNamespace;
}
