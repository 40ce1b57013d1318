// A pool of engines in the live display: each engine's counts on the status line, a line when one is lost or answers
// again, and where each candidate ran — all only when there is more than one engine to tell apart.
import { describe, expect, it } from "vitest";
import type { EngineCounts, RunnerEvent } from "../summary/index.ts";
import { evalRun, slot } from "./fixtures/runner-events.ts";
import { createPlainReporter } from "./plain-reporter.ts";
import { describeEngines } from "./tty-progress.ts";

const engine = (name: string, counts: Partial<EngineCounts> = {}): EngineCounts => ({
  name,
  address: `tcp://10.0.0.${name.charCodeAt(0) - 96}:2376`,
  capacity: 2,
  running: 0,
  queued: 0,
  failed: 0,
  done: 0,
  health: "ok",
  problem: null,
  ...counts,
});

const finished = (name: string): RunnerEvent => ({
  type: "candidate.finished",
  slot,
  evalRun: { ...evalRun, input: { ...evalRun.input, isolation: "container", engine: name } },
  outcome: "completed",
});

describe("the status line of a pool", () => {
  it("shows each engine's running/capacity, queued, failed and lost, and nothing for one engine", () => {
    expect(
      describeEngines([
        engine("a", { running: 2, queued: 1 }),
        engine("b", { running: 1, failed: 1, capacity: null }),
        engine("c", { health: "lost", problem: "connect ECONNREFUSED" }),
      ]),
    ).toBe(" · engines a 2/2 +1 queued, b 1/∞ 1 failed, c lost");
    expect(describeEngines([engine("default", { running: 3, capacity: null })])).toBe("");
  });
});

describe("plain progress lines of a pool", () => {
  it("says when an engine is lost or unusable and when it answers again, once per change", () => {
    const lines: string[] = [];
    const report = createPlainReporter((line) => lines.push(line));
    report({ type: "engines.changed", engines: [engine("a"), engine("b")] });
    const lost = engine("b", { health: "lost", problem: "connect ECONNREFUSED 10.0.0.2:2376" });
    report({ type: "engines.changed", engines: [engine("a"), lost] });
    report({ type: "engines.changed", engines: [engine("a", { running: 1 }), lost] });
    report({ type: "engines.changed", engines: [engine("a"), engine("b")] });
    expect(lines).toEqual([
      'Engine "b" (tcp://10.0.0.2:2376) lost: connect ECONNREFUSED 10.0.0.2:2376; its running work is interrupted, and no more is placed on it until it answers again',
      'Engine "b" (tcp://10.0.0.2:2376) answers again: work is placed on it',
    ]);
  });

  it("names the engine a candidate ran on in a pool of several, not with one engine", () => {
    const single: string[] = [];
    const one = createPlainReporter((line) => single.push(line));
    one({ type: "engines.changed", engines: [engine("default")] });
    one(finished("default"));
    expect(single[0]).not.toContain("on engine");
    const pooled: string[] = [];
    const pool = createPlainReporter((line) => pooled.push(line));
    pool({ type: "engines.changed", engines: [engine("a"), engine("b")] });
    pool(finished("b"));
    expect(pooled[0]).toContain("in 2.5 s on engine b, eval run eval_1");
  });
});
