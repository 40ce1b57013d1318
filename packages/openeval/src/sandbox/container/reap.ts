// Finding and removing containers by label: every container of an eval or judge run once it has ended, or those
// whose owning process on this host is gone (a crash or a kill mid-run). Containers of live runs elsewhere stay.
import { randomBytes } from "node:crypto";
import { isOrphan, ownerLabel } from "../owner.ts";
import { OWNER_LABEL, type ReapOptions } from "../sandbox.ts";
import { statusOf, type Engine } from "./engine.ts";

export async function listContainers(
  engine: Engine,
  labels: Record<string, string>,
): Promise<{ id: string; labels: Record<string, string> }[]> {
  const filters = { label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) };
  const containers = await engine.docker.listContainers({ all: true, filters });
  return containers.map((container) => ({ id: container.Id, labels: container.Labels }));
}

/** Creates an engine-managed volume carrying the labels (found and removed by them when its runner died). */
export async function createVolume(engine: Engine, labels: Record<string, string>): Promise<string> {
  const name = `openeval-${randomBytes(8).toString("hex")}`;
  await engine.docker.createVolume({ Name: name, Labels: { ...labels, [OWNER_LABEL]: ownerLabel() } });
  return name;
}

export async function removeVolume(engine: Engine, name: string): Promise<void> {
  await engine.docker
    .getVolume(name)
    .remove({ force: true })
    .catch((error: unknown) => {
      if (statusOf(error) !== 404) throw error;
    });
}

/** Removes the matching containers (and their volumes, anonymous and labelled named ones); returns the ids removed. */
export async function reapContainers(
  engine: Engine,
  labels: Record<string, string>,
  options: ReapOptions = {},
): Promise<string[]> {
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
  const filters = { label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) };
  for (const volume of (await engine.docker.listVolumes({ filters })).Volumes ?? []) {
    if (options.orphansOnly && !isOrphan(volume.Labels?.[OWNER_LABEL])) continue;
    // Still in use by a container outside this reap: the engine refuses (409), and the next reap tries again.
    await engine.docker
      .getVolume(volume.Name)
      .remove()
      .catch(() => {});
  }
  return removed;
}
