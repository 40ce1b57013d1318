import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import {
  recordInvocationStarted,
  ResultsStore,
  type BenchmarkRun,
  type EvalRun,
  type Invocation,
  type JudgeRun,
} from "../records/index.ts";
import { LIST_LIMIT, readQueue } from "./live-queue.ts";
import type { QueueList } from "./queue-types.ts";
import { buildRunIndex, readRunIndex } from "./run-index.ts";

const T = Date.parse("2026-12-01T10:00:00.000Z");
/** The run index tells liveness by the wall clock: a heartbeat that beat just now. */
const beating = () => ({ at: Date.now() });
const at = (seconds: number) => new Date(T + seconds * 1_000).toISOString();
const run: BenchmarkRun = {
  id: "r",
  name: "queue",
  benchmarkDirectory: "/nowhere",
  createdAt: at(-100),
  opencodeVersion: "1.18.33",
  models: ["m/a"],
  repetitions: 3,
  evals: ["e"],
};

function evalRun(repetition: number, started: number, elapsed: number | null, cost: number | null = 0.5): EvalRun {
  return {
    id: `eval_${repetition}-${started}`,
    runId: "r",
    slot: { evalId: "e", model: "m/a", variant: "current", repetition },
    control: false,
    state: elapsed === null ? "running" : "completed",
    infrastructureError: false,
    error: null,
    startedAt: at(started),
    completedAt: elapsed === null ? null : at(started + elapsed),
    elapsedMs: elapsed === null ? null : elapsed * 1_000,
    input: { candidateFingerprint: "f", prompt: "p", timeoutMs: 60_000, maxCostUSD: null, opencodeVersion: "1.18.33" },
    evidence: elapsed === null ? null : { directory: "x", hash: "h" },
    metrics: elapsed === null ? null : ({ cost: { usd: cost }, tools: { calls: 1 } } as EvalRun["metrics"]),
  };
}

function judgeRun(of: EvalRun, started: number, elapsed: number, cost = 0.25): JudgeRun {
  return {
    id: `judge_${of.id}`,
    runId: "r",
    evalRunId: of.id,
    slot: of.slot,
    kind: "rubric",
    state: "completed",
    judgeFingerprint: "j",
    startedAt: at(started),
    completedAt: at(started + elapsed),
    elapsedMs: elapsed * 1_000,
    scores: { x: { value: 1, source: "judge.md" } },
    unscored: false,
    costUSD: cost,
    error: null,
    directory: "j",
  };
}

const work = [1, 2, 3].map((repetition) => ({
  kind: "candidate" as const,
  evalId: "e",
  model: "m/a",
  variant: "current",
  repetition,
}));
const invocation = (finished = false): Invocation => ({
  started: { invocation: "inv_1", startedAt: at(0), pid: 1, concurrency: 2, maxCostUSD: 3, estimateUSD: 1.5 },
  finished: finished ? { invocation: "inv_1", finishedAt: at(60), complete: true, verdict: "pass" } : null,
  work: finished ? null : work,
});

describe("the live queue", () => {
  // An earlier invocation's work (before t = 0) only informs the durations.
  const earlier = evalRun(1, -90, 20);
  const earlierJudge = judgeRun(earlier, -70, 10);
  const first = evalRun(1, 1, 10, 0.4); // finished at 11 s, not judged yet
  const second = evalRun(2, 5, null); // running since 5 s
  const index = (finished = false, live = true) =>
    buildRunIndex(
      "/nowhere/r",
      run,
      [earlier, first, second],
      [earlierJudge],
      live ? beating() : null,
      [],
      [invocation(finished)],
    );

  it("lists running, queued and finished work of the latest invocation, with spend against --max-cost", () => {
    const queue = readQueue(index(), T + 15_000);
    expect(queue.status).toBe("running");
    expect(queue.invocation).toMatchObject({ maxCostUSD: 3, concurrency: 2 });
    expect(queue.running.items.map((item) => [item.kind, item.repetition, item.elapsedMs])).toEqual([
      ["candidate", 2, 10_000],
    ]);
    // The finished candidate's judging comes first, then the candidate not started.
    expect(queue.queued.items.map((item) => [item.kind, item.repetition, item.evalRunId])).toEqual([
      ["judge", 1, first.id],
      ["candidate", 3, null],
    ]);
    expect(queue.finished.items.map((item) => item.evalRunId)).toEqual([first.id]);
    expect(queue.spendUSD).toBeCloseTo(0.4);
  });

  it("lists the latest finished work first, eval and judge runs together, LIST_LIMIT of them, and counts every failure", () => {
    // 120 finished candidates, every third judged 1 s after it ended; one candidate failed.
    const candidates = Array.from({ length: 120 }, (_, n) => ({ ...evalRun(1 + (n % 3), n * 2, 1), id: `eval_${n}` }));
    candidates[7] = { ...candidates[7]!, state: "failed" };
    const judges = candidates
      .filter((_, n) => n % 3 === 0)
      .map((of) => judgeRun(of, Date.parse(of.completedAt!) / 1_000 - T / 1_000, 1));
    const queue = readQueue(
      buildRunIndex("/nowhere/r", run, candidates, judges, null, [], [invocation(true)]),
      T + 500_000,
    );
    expect(queue.finished.total).toBe(160);
    expect(queue.finished.items).toHaveLength(LIST_LIMIT);
    const ended = queue.finished.items.map((item) => Date.parse(item.completedAt!));
    expect(ended).toEqual([...ended].sort((a, b) => b - a));
    // eval_119 ended at 239 s, eval_118 at 237 s, eval_117's judging at 236 s.
    expect(queue.finished.items.slice(0, 3).map((item) => [item.kind, item.evalRunId])).toEqual([
      ["candidate", "eval_119"],
      ["candidate", "eval_118"],
      ["judge", "eval_117"],
    ]);
    expect(queue.failed).toBe(1);
  });

  it("reads a live run's planned work from its store, and queues what has not started", async () => {
    const store = ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
    try {
      store.writeRun(run);
      recordInvocationStarted(store, {
        invocation: "inv_1",
        startedAt: at(0),
        pid: process.pid,
        concurrency: 2,
        maxCostUSD: null,
        estimateUSD: null,
        work,
      });
      store.beat(process.pid);
      const queue = readQueue(readRunIndex(store.directory), T + 15_000);
      expect(queue.status).toBe("running");
      expect(queue.queued.items.map((item) => [item.kind, item.repetition])).toEqual([
        ["candidate", 1],
        ["candidate", 2],
        ["candidate", 3],
      ]);
    } finally {
      store.close();
    }
  });

  it("names each item's candidate, so that a variant's work never reads as current's", () => {
    const concise = (of: EvalRun): EvalRun => ({
      ...of,
      id: `${of.id}-concise`,
      slot: { ...of.slot, variant: "concise" },
    });
    const planned = [...work, ...work.map((item) => ({ ...item, variant: "concise" }))];
    const running = invocation();
    const queue = readQueue(
      buildRunIndex(
        "/nowhere/r",
        { ...run, variants: ["concise"] },
        [first, concise(first), second, concise(second)],
        [],
        beating(),
        [],
        [{ ...running, work: planned }],
      ),
      T + 15_000,
    );
    const named = (list: QueueList) =>
      list.items.map((item) => [item.kind, item.candidate, item.variant, item.repetition]);
    expect(named(queue.running)).toEqual([
      ["candidate", "m/a", "current", 2],
      ["candidate", "m/a [concise]", "concise", 2],
    ]);
    expect(named(queue.finished)).toEqual([
      ["candidate", "m/a", "current", 1],
      ["candidate", "m/a [concise]", "concise", 1],
    ]);
    // Planned work keeps its variant: current's repetition 3 and the concise arm's are two queued items.
    expect(named(queue.queued)).toEqual([
      ["judge", "m/a", "current", 1],
      ["judge", "m/a [concise]", "concise", 1],
      ["candidate", "m/a", "current", 3],
      ["candidate", "m/a [concise]", "concise", 3],
    ]);
  });

  it("estimates the time left from this run's typical durations, over the lanes", () => {
    // Candidates take 15 s (median of 20 and 10), judges 10 s. Left: the running one 15 − 10 = 5 s + its judge 10 s;
    // the queued judge 10 s; the queued candidate 15 s + its judge 10 s. 50 s over 2 lanes.
    expect(readQueue(index(), T + 15_000).etaMs).toBe(25_000);
    expect(readQueue(index(), T + 17_000).etaMs).toBe(24_000);
  });

  it("waits for a judge to finish before it tells an ETA", () => {
    const queue = readQueue(
      buildRunIndex("/nowhere/r", run, [first, second], [], beating(), [], [invocation()]),
      T + 15_000,
    );
    expect(queue.etaMs).toBeNull();
    expect(queue.etaNote).toMatch(/once a judge of this run has finished/);
  });

  it("ends in the summary, or says the runner stopped", () => {
    const done = readQueue(index(true, false), T + 70_000);
    expect(done).toMatchObject({
      status: "finished",
      etaMs: 0,
      summary: { verdict: "pass", complete: true },
      queued: { total: 0 },
    });
    const gone = readQueue(index(false, false), T + 70_000);
    expect(gone).toMatchObject({ status: "stopped", etaMs: null, queued: { total: 0 } });
    expect(readQueue(buildRunIndex("/nowhere/r", run, [], [], null), T)).toMatchObject({
      status: "none",
      invocation: null,
    });
  });
});
