// The image ids a run's work was planned with, recorded when each invocation starts (an appended event, never a
// rewrite): reading the run later compares its fingerprints against these, so a report, the viewer or a baseline
// needs no container engine and does not change when an image is rebuilt. Only a planner about to run asks an engine.
import { RuntimeIdentitySchema, type RuntimeIdentity } from "./schema.ts";
import { StoreError } from "./errors.ts";
import type { ResultsStore } from "./store.ts";

export const RUNTIME_RESOLVED_EVENT = "runtime.resolved";

/** Appends what this invocation resolved, unless it is what the run already holds (nothing resolved: nothing appended). */
export function recordRuntimeIdentity(store: ResultsStore, resolved: RuntimeIdentity): void {
  const identity = RuntimeIdentitySchema.parse(
    Object.fromEntries(Object.entries(resolved).filter(([, id]) => id !== undefined)),
  );
  const recorded = readRuntimeIdentity(store);
  const same = (key: keyof RuntimeIdentity) =>
    key === "environmentImages"
      ? Object.entries(identity.environmentImages ?? {}).every(
          ([evalId, id]) => recorded?.environmentImages?.[evalId] === id,
        )
      : recorded?.[key] === identity[key];
  if ((Object.keys(identity) as (keyof RuntimeIdentity)[]).every(same)) return;
  store.appendEvent(RUNTIME_RESOLVED_EVENT, identity);
}

/**
 * Each image id as the latest invocation that resolved it recorded it; null for a run recorded before runtime
 * identities were (its readers plan containerized and verifying work with no image, and say so).
 */
export function readRuntimeIdentity(store: Pick<ResultsStore, "eventsOf">): RuntimeIdentity | null {
  const events = store.eventsOf([RUNTIME_RESOLVED_EVENT]);
  if (events.length === 0) return null;
  const identity: RuntimeIdentity = {};
  for (const event of events) {
    const parsed = RuntimeIdentitySchema.safeParse(event.value);
    if (!parsed.success)
      throw new StoreError("recordInvalid", { what: "A runtime identity", problem: parsed.error.message });
    // An invocation scoped to some evals resolves only their environments: the others keep theirs.
    const environmentImages = { ...identity.environmentImages, ...parsed.data.environmentImages };
    Object.assign(identity, parsed.data, Object.keys(environmentImages).length > 0 ? { environmentImages } : {});
  }
  return identity;
}
