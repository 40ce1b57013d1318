import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import { PHASE_CHANNEL, timePhase, type PhaseTiming } from "./phase-timing.ts";

const received: PhaseTiming[] = [];
const listener = (message: unknown) => void received.push(message as PhaseTiming);

afterEach(() => {
  unsubscribe(PHASE_CHANNEL, listener);
  received.length = 0;
});

describe("phase timings", () => {
  it("publish each phase's owner, name and span to a subscriber, also when the work fails", async () => {
    subscribe(PHASE_CHANNEL, listener);
    expect(await timePhase("eval-run-1", "container.volume", async () => "made")).toBe("made");
    await expect(
      timePhase("eval-run-1", "container.remove", async () => Promise.reject(new Error("engine gone"))),
    ).rejects.toThrow("engine gone");
    expect(received.map(({ owner, phase }) => `${owner} ${phase}`)).toEqual([
      "eval-run-1 container.volume",
      "eval-run-1 container.remove",
    ]);
    for (const timing of received) expect(timing.endMs).toBeGreaterThanOrEqual(timing.startMs);
  });
});
