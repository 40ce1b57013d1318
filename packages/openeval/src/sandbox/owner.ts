// Who created a sandbox: `<host>/<pid>`, stored as a label or marker, so that reaping can tell a crashed runner's
// leftovers (owner gone) from a live run's sandboxes (on this host or another).
import { hostname } from "node:os";

export function ownerLabel(): string {
  return `${hostname()}/${process.pid}`;
}

/** True when the owning process no longer runs on this host; sandboxes owned elsewhere are never orphans here. */
export function isOrphan(owner: string | undefined): boolean {
  const match = owner ? /^(.*)\/(\d+)$/.exec(owner) : null;
  if (!match) return true;
  if (match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export function hasLabels(labels: Record<string, string | undefined>, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([key, value]) => labels[key] === value);
}
