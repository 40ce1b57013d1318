import { describe, expect, it } from "vitest";
import { createProviderLimiter } from "./provider-limiter.ts";
import { runWorkQueue, type CandidateAdmission, type WorkItem, type WorkQueueState } from "./work-queue.ts";

interface Item extends WorkItem {
  name: string;
}

describe("runWorkQueue", () => {
  it("never runs more than the concurrency at once, and takes judge work first", async () => {
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const items: Item[] = [
      { kind: "candidate", name: "c1" },
      { kind: "candidate", name: "c2" },
      { kind: "candidate", name: "c3" },
      { kind: "judge", name: "j0" },
    ];
    await runWorkQueue(items, 2, async (item, enqueue) => {
      order.push(item.name);
      running++;
      peak = Math.max(peak, running);
      await Bun.sleep(10);
      running--;
      if (item.kind === "candidate") enqueue({ kind: "judge", name: `j-${item.name}` });
    });
    expect(peak).toBe(2);
    expect(order.slice(0, 2)).toEqual(["j0", "c1"]);
    // Each candidate's judge is taken before the next waiting candidate.
    expect(order.indexOf("j-c1")).toBeLessThan(order.indexOf("c3"));
    expect(order).toHaveLength(7);
  });

  it("keeps a lane free for checks while a monitored candidate runs, and runs a check as soon as it is queued", async () => {
    const log: string[] = [];
    let candidatesRunning = 0;
    let peakCandidates = 0;
    const items: Item[] = [
      { kind: "candidate", name: "m1", monitored: true },
      { kind: "candidate", name: "m2", monitored: true },
      { kind: "candidate", name: "m3", monitored: true },
    ];
    await runWorkQueue(items, 3, async (item, enqueue) => {
      log.push(`start ${item.name}`);
      if (item.kind !== "candidate") return;
      candidatesRunning++;
      peakCandidates = Math.max(peakCandidates, candidatesRunning);
      // The candidate waits for its own check, as a monitored run does until a check stops it.
      let checked!: () => void;
      const done = new Promise<void>((resolve) => (checked = resolve));
      enqueue({ kind: "check", name: `check-${item.name}` });
      const check = setInterval(() => log.includes(`start check-${item.name}`) && checked(), 1);
      await done;
      clearInterval(check);
      candidatesRunning--;
    });
    expect(peakCandidates).toBe(2);
    for (const name of ["m1", "m2", "m3"]) expect(log).toContain(`start check-${name}`);
  });

  it("starts the first candidate in queue order that may start: a plain one passes a monitored one waiting for a lane", async () => {
    const started: string[] = [];
    const states: number[] = [];
    const items: Item[] = [
      { kind: "candidate", name: "p1" },
      { kind: "candidate", name: "m1", monitored: true },
      { kind: "candidate", name: "p2" },
      { kind: "candidate", name: "p3" },
    ];
    await runWorkQueue(
      items,
      2,
      async (item) => {
        started.push(item.name);
        await Bun.sleep(item.name === "p1" ? 30 : 5);
      },
      { onChange: (state) => states.push(state.queued) },
    );
    // With p1 running, m1 needs both lanes (one kept for its checks): p2 and p3 start before it, in their order.
    expect(started).toEqual(["p1", "p2", "p3", "m1"]);
    expect(states[0]).toBe(3);
    expect(states.at(-1)).toBe(0);
  });

  it("reports when each running item started and how long the done ones took, for an ETA", async () => {
    const states: WorkQueueState[] = [];
    const before = Date.now();
    await runWorkQueue(
      [
        { kind: "candidate", name: "a" },
        { kind: "candidate", name: "b" },
        { kind: "candidate", name: "c" },
      ] as Item[],
      2,
      () => Bun.sleep(20),
      {
        onChange: (state) => states.push(state),
      },
    );
    for (const state of states) {
      expect(state.runningSince).toHaveLength(state.running);
      for (const since of state.runningSince) expect(since).toBeGreaterThanOrEqual(before);
    }
    const last = states.at(-1)!;
    expect(last).toMatchObject({ running: 0, queued: 0, done: 3, runningSince: [] });
    // The sum of three 20 ms items, which two lanes ran in less time.
    expect(last.doneMs).toBeGreaterThanOrEqual(3 * 15);
    expect(last.doneMs).toBeLessThanOrEqual(2 * (Date.now() - before));
  });

  it("does not reserve a lane at concurrency 1 (so monitored work cannot stall)", async () => {
    const started: string[] = [];
    await runWorkQueue([{ kind: "candidate", name: "m", monitored: true }] as Item[], 1, async (item) => {
      started.push(item.name);
    });
    expect(started).toEqual(["m"]);
  });

  it("stops taking new work once aborted, letting running work finish", async () => {
    const controller = new AbortController();
    const started: string[] = [];
    await runWorkQueue(
      [
        { kind: "candidate", name: "a" },
        { kind: "candidate", name: "b" },
        { kind: "candidate", name: "c" },
      ] as Item[],
      1,
      async (item) => {
        started.push(item.name);
        if (item.name === "a") controller.abort();
        await Bun.sleep(5);
      },
      { signal: controller.signal },
    );
    expect(started).toEqual(["a"]);
  });

  it("starts other providers' candidates while one provider's wait, and its own once it admits them again", async () => {
    const limiter = createProviderLimiter({ max: 4 });
    const providerOf = (item: Item) => item.name.split("-")[0]!;
    const admission: CandidateAdmission<Item> = {
      groupOf: providerOf,
      admits: (item) => limiter.admits(providerOf(item)),
      started: (item) => limiter.started(providerOf(item)),
      finished: (item) => limiter.finished(providerOf(item)),
      subscribe: (listener) => limiter.subscribe(listener),
    };
    const slow = limiter.watch("slow");
    const started: string[] = [];
    const names = ["slow-1", "slow-2", "slow-3", "fast-1", "fast-2", "fast-3"];
    await runWorkQueue(
      names.map((name) => ({ kind: "candidate", name }) as Item),
      4,
      async (item) => {
        started.push(item.name);
        if (item.name === "slow-1") {
          // Its provider answers 429: the other slow ones wait for the retry, the fast ones take the lanes.
          slow.observe({
            kind: "failed",
            provider: null,
            sessionID: "ses_1",
            pressure: "rate_limited",
            message: "429",
          });
          await Bun.sleep(20);
          slow.observe({ kind: "sent", provider: null, sessionID: "ses_1" });
          await Bun.sleep(20);
          started.push("slow-1 done");
        } else await Bun.sleep(5);
      },
      { admission },
    );
    // Once the retry is sent, the next slow candidate starts at once (its share of 2 has room), before slow-1 ends.
    expect(started.slice(0, 5)).toEqual(["slow-1", "fast-1", "fast-2", "fast-3", "slow-2"]);
    expect(started.indexOf("slow-2")).toBeLessThan(started.indexOf("slow-1 done"));
    expect(started).toContain("slow-3");
  });
});
