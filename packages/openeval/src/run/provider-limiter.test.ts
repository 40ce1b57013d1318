import { describe, expect, it } from "vitest";
import type { ProviderSignal } from "../opencode/index.ts";
import type { ProviderBackoff } from "../summary/index.ts";
import { createProviderLimiter } from "./provider-limiter.ts";

function setUp(max = 4) {
  let clock = 1_000;
  const changes: ProviderBackoff[] = [];
  const limiter = createProviderLimiter({ max, onChange: (change) => changes.push(change), now: () => clock });
  return {
    limiter,
    changes,
    advance: (ms: number) => (clock += ms),
    /** `count` candidates of `provider` start. */
    start: (provider: string, count: number) => {
      for (let i = 0; i < count; i++) limiter.started(provider);
    },
  };
}

type Failure = Extract<ProviderSignal, { kind: "failed" }>;

const limited = (sessionID: string, provider: string | null = null): Failure => ({
  kind: "failed",
  provider,
  sessionID,
  pressure: "rate_limited",
  message: "Too Many Requests",
});
const sent = (sessionID: string): ProviderSignal => ({ kind: "sent", provider: null, sessionID });
const answered = (sessionID: string): ProviderSignal => ({ kind: "answered", sessionID });

describe("a provider's share of the candidates (AIMD)", () => {
  it("halves on a 429, then rises by one per `limit` answers, back to the run's concurrency", () => {
    const { limiter, changes, start } = setUp(8);
    start("local", 8);
    const watch = limiter.watch("local");
    watch.observe(limited("ses_1"));
    expect(limiter.limitOf("local")).toBe(4);
    watch.observe(sent("ses_1"));
    for (let i = 0; i < 4; i++) limiter.finished("local");
    // 4 answers at a share of 4 make 5, 5 more make 6, then 6 and 7: 22 answers to recover.
    const raisedAfter: number[] = [];
    for (let answer = 1; answer <= 30; answer++) {
      const before = limiter.limitOf("local");
      watch.observe(answered("ses_1"));
      if (limiter.limitOf("local") !== before) raisedAfter.push(answer);
    }
    expect(raisedAfter).toEqual([4, 9, 15, 22]);
    expect(limiter.limitOf("local")).toBe(8);
    expect(changes.map(({ change, limit }) => `${change} ${limit}`)).toEqual([
      "lowered 4",
      "resumed 4",
      "raised 5",
      "raised 6",
      "raised 7",
      "recovered 8",
    ]);
    expect(changes[0]).toEqual({
      provider: "local",
      change: "lowered",
      limit: 4,
      max: 8,
      reason: "rate_limited",
      message: "Too Many Requests",
      retryAfterMs: null,
    });
  });

  it("halves rounding up, never below one candidate, and a 503-like answer lowers it as a 429 does", () => {
    const three = setUp(3);
    three.start("local", 1);
    three.limiter.watch("local").observe(limited("ses_0"));
    expect(three.limiter.limitOf("local")).toBe(2);
    const { limiter, changes, start } = setUp(2);
    start("local", 1);
    const watch = limiter.watch("local");
    const unavailable: ProviderSignal = { ...limited("ses_1"), pressure: "unavailable", message: "Overloaded" };
    watch.observe(unavailable);
    watch.observe(sent("ses_1"));
    watch.observe(unavailable);
    expect(limiter.limitOf("local")).toBe(1);
    expect(changes.map(({ change, limit, reason }) => `${change} ${limit} ${reason}`)).toEqual([
      "lowered 1 unavailable",
      "resumed 1 null",
      "held 1 unavailable",
    ]);
  });

  it("halves once for a burst of 429s, and not again for candidates started under the higher share", () => {
    const { limiter, changes, start } = setUp(4);
    start("local", 4);
    const watches = ["ses_1", "ses_2", "ses_3"].map(() => limiter.watch("local"));
    watches.forEach((watch, i) => watch.observe(limited(`ses_${i + 1}`)));
    expect(limiter.limitOf("local")).toBe(2);
    watches.forEach((watch, i) => watch.observe(sent(`ses_${i + 1}`)));
    // Still 4 running under a share of 2: another 429 holds new candidates, and answers do not raise the share.
    watches[0]!.observe(limited("ses_1"));
    watches[0]!.observe(sent("ses_1"));
    for (let i = 0; i < 10; i++) watches[1]!.observe(answered("ses_2"));
    expect(limiter.limitOf("local")).toBe(2);
    expect(changes.map(({ change, limit }) => `${change} ${limit}`)).toEqual([
      "lowered 2",
      "resumed 2",
      "held 2",
      "resumed 2",
    ]);
  });

  it("counts no answers while its candidates wait for a retry", () => {
    const { limiter, start } = setUp(4);
    start("local", 1);
    const watch = limiter.watch("local");
    watch.observe(limited("ses_1"));
    for (let i = 0; i < 10; i++) watch.observe(answered("ses_2"));
    expect(limiter.limitOf("local")).toBe(2);
    watch.observe(sent("ses_1"));
    watch.observe(answered("ses_2"));
    watch.observe(answered("ses_2"));
    expect(limiter.limitOf("local")).toBe(3);
  });

  it("ignores failures that say nothing about load", () => {
    const { limiter, changes, start } = setUp(4);
    start("local", 1);
    limiter.watch("local").observe({ ...limited("ses_1"), pressure: null, message: "Bad Request" });
    expect(limiter.admits("local")).toBe(true);
    expect(limiter.limitOf("local")).toBe(4);
    expect(changes).toEqual([]);
  });
});

describe("retry-after: no new candidate of a pushed-back provider starts before OpenCode's retry", () => {
  it("holds new candidates until every pushed-back request was sent again, and says how long that took", () => {
    const { limiter, changes, advance, start } = setUp(4);
    start("local", 1);
    const [a, b] = [limiter.watch("local"), limiter.watch("local")];
    let widened = 0;
    limiter.subscribe(() => widened++);
    a.observe(limited("ses_a"));
    advance(200);
    b.observe(limited("ses_b"));
    // Below its share of 2 (one running), yet held: the provider asked to wait.
    expect(limiter.admits("local")).toBe(false);
    advance(1_800);
    a.observe(sent("ses_a"));
    expect(limiter.admits("local")).toBe(false);
    advance(200);
    b.observe(sent("ses_b"));
    expect(limiter.admits("local")).toBe(true);
    expect(widened).toBe(1);
    expect(changes.at(-1)).toMatchObject({ change: "resumed", limit: 2, retryAfterMs: 2_200 });
  });

  it("lets go when the waiting candidate ends without a retry (OpenCode gave up, or the run was stopped)", () => {
    const { limiter, changes, start } = setUp(4);
    start("local", 1);
    const watch = limiter.watch("local");
    watch.observe(limited("ses_1"));
    expect(limiter.admits("local")).toBe(false);
    watch.end();
    expect(limiter.admits("local")).toBe(true);
    expect(changes.at(-1)).toMatchObject({ change: "resumed" });
  });

  it("admits up to the share, counting the candidates running", () => {
    const { limiter, start } = setUp(4);
    start("local", 1);
    limiter.watch("local").observe(limited("ses_1"));
    limiter.watch("local").observe(sent("ses_1"));
    expect(limiter.admits("local")).toBe(true);
    limiter.started("local");
    expect(limiter.admits("local")).toBe(false);
    limiter.finished("local");
    expect(limiter.admits("local")).toBe(true);
  });
});

describe("providers are independent", () => {
  it("one provider's back-off leaves another's share and starts alone", () => {
    const { limiter, changes, start } = setUp(4);
    start("slow", 2);
    start("fast", 2);
    limiter.watch("slow").observe(limited("ses_slow"));
    expect(limiter.admits("slow")).toBe(false);
    expect(limiter.limitOf("slow")).toBe(2);
    expect(limiter.admits("fast")).toBe(true);
    expect(limiter.limitOf("fast")).toBe(4);
    expect(changes.map((change) => change.provider)).toEqual(["slow"]);
  });

  it("follows the provider a log line names (a subagent's model), and its session's answers after", () => {
    const { limiter, start } = setUp(4);
    start("main", 1);
    const watch = limiter.watch("main");
    watch.observe(limited("ses_sub", "other"));
    expect(limiter.limitOf("other")).toBe(2);
    expect(limiter.limitOf("main")).toBe(4);
    watch.observe({ kind: "sent", provider: "other", sessionID: "ses_sub" });
    watch.observe(answered("ses_sub"));
    watch.observe(answered("ses_sub"));
    expect(limiter.limitOf("other")).toBe(3);
  });
});
