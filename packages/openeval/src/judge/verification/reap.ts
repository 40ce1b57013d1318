// Removing verification containers that outlived their run: those of a given judge run, and those whose owning
// process on this host is gone (a crash or a kill mid-run). Containers of live runs elsewhere are left alone.
import { hostname } from "node:os";
import { connectEngine, statusOf, type EngineOptions } from "./engine.ts";
import { CONTAINER_LABELS } from "./sandbox.ts";

export interface ReapOptions extends EngineOptions {
  /** Remove every container of this judge run, whoever started it (call once the judge run has ended). */
  judgeRun?: string;
}

/**
 * Removes leftover verification containers (and their volumes); returns the ids removed.
 * @example
 * await reapVerificationContainers();                       // at the start of `openeval run`
 * await reapVerificationContainers({ judgeRun: "jr_123" }); // after a judge worker was killed
 */
export async function reapVerificationContainers(options: ReapOptions = {}): Promise<string[]> {
  const engine = await connectEngine(options);
  const label = options.judgeRun ? `${CONTAINER_LABELS.judgeRun}=${options.judgeRun}` : CONTAINER_LABELS.verification;
  const containers = await engine.docker.listContainers({ all: true, filters: { label: [label] } });
  const removed: string[] = [];
  for (const container of containers) {
    if (!options.judgeRun && !isOrphan(container.Labels[CONTAINER_LABELS.owner])) continue;
    try {
      await engine.docker.getContainer(container.Id).remove({ force: true, v: true });
      removed.push(container.Id);
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
  return removed;
}

/** `host/pid` of the process that created the container: an orphan when that process no longer runs here. */
function isOrphan(owner: string | undefined): boolean {
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
