// Finding and removing containers by label: every container of an eval or judge run once it has ended, or those
// whose owning process on this host is gone (a crash or a kill mid-run). Containers of live runs elsewhere stay.
import { isOrphan } from "../owner.ts";
import { OWNER_LABEL, type ReapOptions } from "../sandbox.ts";
import { statusOf, type Engine } from "./engine.ts";

export async function listContainers(engine: Engine, labels: Record<string, string>): Promise<{ id: string; labels: Record<string, string> }[]> {
  const filters = { label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) };
  const containers = await engine.docker.listContainers({ all: true, filters });
  return containers.map((container) => ({ id: container.Id, labels: container.Labels }));
}

/** Removes the matching containers (and their volumes); returns the ids removed. */
export async function reapContainers(engine: Engine, labels: Record<string, string>, options: ReapOptions = {}): Promise<string[]> {
  const removed: string[] = [];
  for (const container of await listContainers(engine, labels)) {
    if (options.orphansOnly && !isOrphan(container.labels[OWNER_LABEL])) continue;
    try {
      await engine.docker.getContainer(container.id).remove({ force: true, v: true });
      removed.push(container.id);
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
  return removed;
}
