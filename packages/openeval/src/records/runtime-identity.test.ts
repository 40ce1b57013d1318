import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { readRuntimeIdentity, recordRuntimeIdentity, RUNTIME_RESOLVED_EVENT } from "./runtime-identity.ts";
import { ResultsStore } from "./store.ts";

async function emptyStore(): Promise<ResultsStore> {
  return ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
}

describe("a run's runtime identity", () => {
  it("is null until a runner records one, then each id as the latest invocation that resolved it recorded it", async () => {
    const store = await emptyStore();
    expect(readRuntimeIdentity(store)).toBeNull();
    recordRuntimeIdentity(store, { candidateImage: "sha256:a", verificationImage: "sha256:v" });
    recordRuntimeIdentity(store, { candidateImage: "sha256:b", verificationImage: undefined });
    expect(readRuntimeIdentity(store)).toEqual({ candidateImage: "sha256:b", verificationImage: "sha256:v" });
    store.close();
  });

  it("appends nothing when an invocation resolved nothing, or what the run already holds", async () => {
    const store = await emptyStore();
    recordRuntimeIdentity(store, {});
    recordRuntimeIdentity(store, { candidateImage: "sha256:a" });
    recordRuntimeIdentity(store, { candidateImage: "sha256:a" });
    expect(store.eventsOf([RUNTIME_RESOLVED_EVENT]).map((event) => event.value)).toEqual([
      { candidateImage: "sha256:a" },
    ]);
    store.close();
  });

  it("keeps each eval's environment image as the latest invocation that resolved it, whichever evals it scoped", async () => {
    const store = await emptyStore();
    recordRuntimeIdentity(store, { environmentImages: { a: "sha256:a1", b: "sha256:b1" } });
    recordRuntimeIdentity(store, { environmentImages: { b: "sha256:b2" } });
    recordRuntimeIdentity(store, { environmentImages: { a: "sha256:a1" } });
    expect(readRuntimeIdentity(store)).toEqual({ environmentImages: { a: "sha256:a1", b: "sha256:b2" } });
    // The last invocation resolved what the run already held: nothing appended for it.
    expect(store.eventsOf([RUNTIME_RESOLVED_EVENT])).toHaveLength(2);
    store.close();
  });

  it("refuses a recorded identity that is not in this openeval's format, saying so", async () => {
    const store = await emptyStore();
    store.appendEvent(RUNTIME_RESOLVED_EVENT, { candidateImage: 7 });
    expect(() => readRuntimeIdentity(store)).toThrow(
      /^A runtime identity in the results store does not match this openeval's format: .*candidateImage/s,
    );
    store.close();
  });
});
