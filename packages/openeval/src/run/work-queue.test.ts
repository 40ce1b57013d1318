import { describe, expect, it } from "vitest";
import { runWorkQueue, type WorkItem } from "./work-queue.ts";

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

  it("stops taking new work once aborted, letting running work finish", async () => {
    const controller = new AbortController();
    const started: string[] = [];
    await runWorkQueue(
      [{ kind: "candidate", name: "a" }, { kind: "candidate", name: "b" }, { kind: "candidate", name: "c" }] as Item[],
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
});
