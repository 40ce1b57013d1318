import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import type { EvalRun } from "../records/index.ts";
import { plannedModels, planSlots, type PlannedSlot } from "./plan-benchmark.ts";
import { recordAll } from "./fixtures/recorded-work.ts";
import { checkRepeatedJudging } from "./check-requests.ts";
import { describeMaximum } from "./cost.ts";

async function benchmarkWith(overrides: Record<string, string> = {}, directory?: string) {
  const root = await writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 2 };\n`,
      "evals/other/prompt.md": "Other task\n",
      "evals/other/judge.ts": "export default () => ({ scores: { ok: true } });\n",
      ...overrides,
    }),
    directory,
  );
  return loadBenchmark(root);
}

function metricsCosting(usd: number): NonNullable<EvalRun["metrics"]> {
  return {
    version: 1,
    cost: { usd },
    tokens: { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 },
    tools: { calls: 0, succeeded: 0, failed: 0, unfinished: 0, errorRate: null },
    requests: null,
    compactions: null,
    timing: { elapsedMs: 1, modelActiveMs: 1, outputTokensPerSecond: null },
  };
}

const actions = (slots: readonly PlannedSlot[]) =>
  slots.map((slot) => `${slot.evalId}/${slot.model}/${slot.repetition}:${slot.action}`);

describe("planSlots", () => {
  it("plans every eval × model × repetition as new work, then reuses it once recorded and judged", async () => {
    const benchmark = await benchmarkWith();
    const first = planSlots(benchmark, { evalRuns: [], judgeRuns: [] });
    expect(actions(first.slots)).toEqual([
      "answer/p/a/1:candidate",
      "answer/p/a/2:candidate",
      "other/p/a/1:candidate",
      "other/p/a/2:candidate",
    ]);
    expect(first.slots[0]!.reason).toBe("New eval/model/repetition");
    const again = planSlots(benchmark, recordAll(first.slots));
    expect(again.slots.every((slot) => slot.action === "reuse")).toBe(true);
  });

  it("editing judge.ts re-judges only that eval; editing prompt.md re-runs only that eval's candidates", async () => {
    const original = await benchmarkWith();
    const recorded = recordAll(planSlots(original, { evalRuns: [], judgeRuns: [] }).slots);
    const judgeEdited = await benchmarkWith(
      { "evals/answer/judge.ts": "export default () => ({ scores: { correct: false } });\n" },
      original.directory,
    );
    expect(actions(planSlots(judgeEdited, recorded).slots)).toEqual([
      "answer/p/a/1:judge",
      "answer/p/a/2:judge",
      "other/p/a/1:reuse",
      "other/p/a/2:reuse",
    ]);
    expect(planSlots(judgeEdited, recorded).slots[0]!.reason).toBe("Judge inputs changed");
    const promptEdited = await benchmarkWith({ "evals/other/prompt.md": "Other task, reworded\n" }, original.directory);
    expect(actions(planSlots(promptEdited, recorded).slots)).toEqual([
      "answer/p/a/1:reuse",
      "answer/p/a/2:reuse",
      "other/p/a/1:candidate",
      "other/p/a/2:candidate",
    ]);
    expect(planSlots(promptEdited, recorded).slots[2]!.reason).toBe("Candidate inputs changed");
  });

  it("editing only criterion categories (judge.md Categories line, judge.ts criteria entries) plans reuse everywhere", async () => {
    const rubric = (categories: string) =>
      `# Answer\n\n## Criterion: exact — Exact answer\n${categories}Pass when the reply is APPLE.\n`;
    const code = (categories: string) =>
      `export const criteria = { ok: { label: "OK"${categories} } };\nexport default () => ({ scores: { ok: true } });\n`;
    const files = (markdown: string, typescript: string) => ({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 2, judge: { model: "p/judge" } };\n`,
      "evals/answer/judge.ts": "",
      "evals/answer/judge.md": rubric(markdown),
      "evals/other/judge.ts": code(typescript),
    });
    const original = await benchmarkWith(files("", ""));
    await rm(join(original.directory, "evals/answer/judge.ts"));
    const plain = await loadBenchmark(original.directory);
    const recorded = recordAll(planSlots(plain, { evalRuns: [], judgeRuns: [] }).slots);
    const categorized = await benchmarkWith(
      files("Categories: Accuracy, speed\n", `, categories: ["Speed"]`),
      original.directory,
    );
    await rm(join(original.directory, "evals/answer/judge.ts"));
    const edited = await loadBenchmark(categorized.directory);
    expect(
      edited.evals.map((evaluation) => evaluation.criteria.map((criterion) => [criterion.id, criterion.categories])),
    ).toEqual([[["exact", ["accuracy", "speed"]]], [["ok", ["speed"]]]]);
    expect(planSlots(edited, recorded).slots.map((slot) => slot.action)).toEqual(["reuse", "reuse", "reuse", "reuse"]);
  });

  it("adding a model adds its slots only; scoping defers the rest", async () => {
    const benchmark = await benchmarkWith();
    const recorded = recordAll(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots);
    const plan = planSlots(benchmark, recorded, {
      models: ["p/a", "p/b"],
      onlyEvals: ["answer"],
      onlyRepetitions: [1],
    });
    expect(actions(plan.slots).filter((line) => !line.endsWith("deferred"))).toEqual([
      "answer/p/a/1:reuse",
      "answer/p/b/1:candidate",
    ]);
    expect(plan.slots.find((slot) => slot.action === "deferred")).toMatchObject({
      deferredBy: "scope",
      reason: "Outside the --only-* scope",
    });
  });

  it("--model adds to benchmark.ts's and the run's models; a retired model stays out unless added back; replaceModels replaces", async () => {
    const benchmark = await benchmarkWith();
    expect(plannedModels(benchmark, { models: ["p/b", "p/a"] })).toEqual(["p/a", "p/b"]);
    expect(plannedModels(benchmark, {}, { active: ["p/c"], retired: [] })).toEqual(["p/c", "p/a"]);
    expect(plannedModels(benchmark, {}, { active: ["p/c"], retired: ["p/a"] })).toEqual(["p/c"]);
    expect(plannedModels(benchmark, { models: ["p/a"] }, { active: ["p/c"], retired: ["p/a"] })).toEqual([
      "p/c",
      "p/a",
    ]);
    expect(plannedModels(benchmark, { replaceModels: ["control/positive"] }, { active: ["p/c"], retired: [] })).toEqual(
      ["control/positive"],
    );
    const plan = planSlots(
      benchmark,
      { evalRuns: [], judgeRuns: [], runModels: { active: ["p/a"], retired: [] } },
      { models: ["p/b"], onlyEvals: ["answer"], onlyRepetitions: [1] },
    );
    expect(actions(plan.slots).filter((line) => !line.endsWith("deferred"))).toEqual([
      "answer/p/a/1:candidate",
      "answer/p/b/1:candidate",
    ]);
  });

  it("never retries failed work silently, but does on explicit retry and rejudge", async () => {
    const benchmark = await benchmarkWith();
    const slots = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots;
    const recorded = recordAll(slots, "failed");
    const plan = planSlots(benchmark, recorded);
    expect(plan.slots[0]).toMatchObject({
      action: "failed",
      reason: expect.stringContaining("retry it explicitly with openeval retry"),
    });
    // The outcome opens the reason once, whether or not the recorded message already says it.
    recorded.evalRuns[0] = { ...recorded.evalRuns[0]!, infrastructureError: true, error: "boom" };
    recorded.evalRuns[1] = {
      ...recorded.evalRuns[1]!,
      infrastructureError: true,
      setupError: true,
      error: "Setup error of p/a: too small",
    };
    // A recorded message's period is not doubled by the reason's own punctuation; no message, no repeated state.
    recorded.evalRuns[2] = {
      ...recorded.evalRuns[2]!,
      state: "timed_out",
      infrastructureError: true,
      error: "Wall-clock timeout of 1 ms reached; the whole process tree was killed.",
    };
    const reasons = planSlots(benchmark, recorded).slots.map((slot) => slot.reason);
    expect(reasons).toEqual([
      "Infrastructure error: boom; retry it explicitly with openeval retry",
      "Setup error of p/a: too small; retry it explicitly with openeval retry",
      "Infrastructure error: Wall-clock timeout of 1 ms reached; the whole process tree was killed; retry it explicitly with openeval retry",
      "Candidate failed; retry it explicitly with openeval retry",
    ]);
    expect(planSlots(benchmark, recorded, { retry: ["eval_0"] }).slots[0]).toMatchObject({
      action: "candidate",
      reason: "Explicit retry of eval_0",
    });
    const judgedBadly = recordAll(slots);
    judgedBadly.judgeRuns[1] = {
      ...judgedBadly.judgeRuns[1]!,
      state: "timed_out",
      error: "Wall-clock timeout of 1 ms reached; the whole process tree was killed.",
    };
    // The state in words, and the recorded message's period not doubled by the reason's own punctuation.
    expect(planSlots(benchmark, judgedBadly).slots[1]).toMatchObject({
      action: "failed",
      reason:
        "Judge timed out: Wall-clock timeout of 1 ms reached; the whole process tree was killed; rejudge it explicitly with openeval rejudge",
    });
    expect(planSlots(benchmark, judgedBadly, { rejudge: "failed" }).slots.map((slot) => slot.action)).toEqual([
      "reuse",
      "judge",
      "reuse",
      "reuse",
    ]);
    expect(planSlots(benchmark, judgedBadly, { rejudge: ["eval_0"] }).slots[0]).toMatchObject({
      action: "judge",
      reason: "Explicit rejudge of eval_0",
    });
    // retry/rejudge do only what they were asked; other pending work waits for `openeval run`.
    const partly = { evalRuns: judgedBadly.evalRuns.slice(0, 2), judgeRuns: judgedBadly.judgeRuns.slice(0, 2) };
    expect(
      planSlots(benchmark, partly, { rejudge: "failed", explicitOnly: true }).slots.map((slot) => slot.action),
    ).toEqual(["reuse", "judge", "deferred", "deferred"]);
  });

  it("rejudge --repeat grades judged rubric recordings again keeping their judgments; an explicit rejudge grades afresh", async () => {
    const benchmark = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 2, judge: { model: "p/judge" } };\n`,
      "evals/answer/judge.md": "## Criterion: clear — Clear\nThe answer is clear.\n",
    });
    const recorded = recordAll(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots);
    const repeated = planSlots(benchmark, recorded, { rejudge: "judged", repeatJudgments: 2, explicitOnly: true });
    // answer has a rubric (its judge.ts and judge.md make it hybrid); other has judge.ts only: nothing to repeat.
    expect(repeated.slots.map((slot) => [slot.evalId, slot.action, slot.judging ?? null])).toEqual([
      ["answer", "judge", { repeat: 2 }],
      ["answer", "judge", { repeat: 2 }],
      ["other", "reuse", null],
      ["other", "reuse", null],
    ]);
    expect(repeated.slots[0]!.reason).toBe("Repeated judging of eval_0: each judge grades it 2 more time(s)");
    expect(() => checkRepeatedJudging(repeated.slots, { rejudge: "judged", repeatJudgments: 2 })).not.toThrow();
    expect(planSlots(benchmark, recorded, { rejudge: ["eval_1"] }).slots[1]).toMatchObject({
      action: "judge",
      judging: "fresh",
    });
    const onCode = planSlots(benchmark, recorded, { rejudge: ["eval_2"], repeatJudgments: 1, explicitOnly: true });
    expect(() => checkRepeatedJudging(onCode.slots, { rejudge: ["eval_2"], repeatJudgments: 1 })).toThrow(
      "rejudge --repeat eval_2: other × p/a #1 has no judge.md judgment to grade again",
    );
    const nothing = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { rejudge: "judged", repeatJudgments: 1 });
    expect(() => checkRepeatedJudging(nothing.slots, { rejudge: "judged", repeatJudgments: 1 })).toThrow(
      "rejudge --repeat: no judged recording of an eval with judge.md is in scope",
    );
  });

  it("re-plans interrupted work", async () => {
    const benchmark = await benchmarkWith();
    const recorded = recordAll(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots, "interrupted");
    expect(planSlots(benchmark, recorded).slots[0]).toMatchObject({
      action: "candidate",
      reason: "The previous execution was interrupted before it finished",
    });
    // `openeval retry <interrupted eval run>` executes it (the interrupted run is not a recording to reuse).
    expect(
      planSlots(benchmark, recorded, { retry: ["eval_0"], explicitOnly: true }).slots.map((slot) => slot.action),
    ).toEqual(["candidate", "deferred", "deferred", "deferred"]);
  });

  it("--offline defers model calls and keeps code judging; --max-cost defers work whose maximum is unknown or over budget", async () => {
    const benchmark = await benchmarkWith();
    const slots = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots;
    const offline = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { offline: true });
    expect(offline.slots.every((slot) => slot.action === "deferred" && slot.deferredBy === "offline")).toBe(true);
    const unjudged = recordAll(slots);
    const judgeOnly = planSlots(benchmark, { evalRuns: unjudged.evalRuns, judgeRuns: [] }, { offline: true });
    expect(judgeOnly.slots.every((slot) => slot.action === "judge")).toBe(true);
    const unbounded = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { maxCostUSD: 10 });
    expect(unbounded.slots[0]).toMatchObject({
      action: "deferred",
      deferredBy: "budget",
      reason: expect.stringContaining("maximum cost is unknown"),
    });
    const bounded = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 2, candidate: { maxCostUSD: 0.4 } };\n`,
    });
    const capped = planSlots(bounded, { evalRuns: [], judgeRuns: [] }, { maxCostUSD: 1 });
    expect(capped.slots.map((slot) => slot.action)).toEqual(["candidate", "candidate", "deferred", "deferred"]);
    expect(capped.slots[2]!.reason).toContain("over the $0.2000 left of the budget");
  });

  it("--max-cost counts what a monitored candidate's earlyStop checks may spend, unless --final-only", async () => {
    const benchmark = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 1, judge: { model: "p/judge", maxCostUSD: 0.2 }, candidate: { maxCostUSD: 0.4 } };\n`,
      "evals/notes/prompt.md": "Write notes.\n",
      "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear\n\nClear notes.\n",
      "evals/notes/eval.ts": "export default { earlyStop: { maxCostUSD: 0.3 } };\n",
    });
    const scope = { onlyEvals: ["notes"], maxCostUSD: 0.85 };
    // Candidate 0.4 + final judge 0.2 + checks 0.3 = 0.9 > 0.85.
    expect(
      planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, scope).slots.find((slot) => slot.evalId === "notes"),
    ).toMatchObject({
      action: "deferred",
      reason: expect.stringContaining("its maximum $0.9000 is over the $0.8500 left"),
    });
    expect(
      planSlots(benchmark, { evalRuns: [], judgeRuns: [] }, { ...scope, finalOnly: true }).slots.find(
        (slot) => slot.evalId === "notes",
      )!.action,
    ).toBe("candidate");
  });

  it("counts earlyStop checks only for the models earlyStop onlyModels names", async () => {
    const benchmark = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a", "p/b"], repetitions: 1, judge: { model: "p/judge", maxCostUSD: 0.2 }, candidate: { maxCostUSD: 0.4 } };\n`,
      "evals/notes/prompt.md": "Write notes.\n",
      "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear\n\nClear notes.\n",
      "evals/notes/eval.ts": `export default { earlyStop: { maxCostUSD: 0.3, onlyModels: ["p/b"] } };\n`,
    });
    // p/a: 0.4 + 0.2 = 0.6 fits in 0.85; p/b adds its checks' 0.3 = 0.9, over it.
    const slots = planSlots(
      benchmark,
      { evalRuns: [], judgeRuns: [] },
      { onlyEvals: ["notes"], maxCostUSD: 0.85 },
    ).slots.filter((slot) => slot.evalId === "notes");
    expect(slots.map((slot) => [slot.model, slot.action])).toEqual([
      ["p/a", "candidate"],
      ["p/b", "deferred"],
    ]);
  });

  it("gives the most the planned work can spend, and names the work nothing bounds", async () => {
    const bounded = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a", "p/b"], repetitions: 1, judge: { model: "p/judge", maxCostUSD: 0.2 }, candidate: { maxCostUSD: 0.4 } };\n`,
      "evals/notes/prompt.md": "Write notes.\n",
      "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear\n\nClear notes.\n",
    });
    const scope = { onlyEvals: ["notes"] };
    // Two candidates, each 0.4 plus its judgment's 0.2.
    const known = planSlots(bounded, { evalRuns: [], judgeRuns: [] }, scope).maximum;
    expect(known.usd).toBeCloseTo(1.2, 12);
    expect(known.unbounded).toEqual([]);
    expect(describeMaximum({ usd: 1.2, unbounded: [] })).toBe("maximum cost: $1.2000");
    const unbounded = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 2, judge: { model: "p/judge" }, candidate: { maxCostUSD: 0.4 } };\n`,
      "evals/notes/prompt.md": "Write notes.\n",
      "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear\n\nClear notes.\n",
    });
    const maximum = planSlots(unbounded, { evalRuns: [], judgeRuns: [] }, scope).maximum;
    expect(maximum.usd).toBeNull();
    expect(maximum.unbounded.map((work) => [work.slot.repetition, work.action, work.why])).toEqual([
      [1, "candidate", "set judge.maxCostUSD to bound it"],
      [2, "candidate", "set judge.maxCostUSD to bound it"],
    ]);
    expect(describeMaximum(maximum)).toBe(
      "maximum cost: unknown (2 unbounded items of work: set judge.maxCostUSD to bound it)",
    );
  });

  it("estimates from the median recorded cost of the same eval and model, else unknown", async () => {
    const benchmark = await benchmarkWith();
    const slots = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots;
    expect(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).estimate.usd).toBeNull();
    const recorded = recordAll(slots.slice(0, 1));
    recorded.evalRuns[0]!.metrics = metricsCosting(0.25);
    // Three slots left to run: the same eval's and the model's history both give 0.25 each.
    expect(planSlots(benchmark, recorded).estimate.usd).toBeCloseTo(0.75);
  });

  it("estimates from runs made under the same limits first, then the eval's and the model's runs", async () => {
    const unlimited = await benchmarkWith();
    const limitedSettings = `export default { models: ["p/a"], repetitions: 2, candidate: { maxTokens: 1000, maxSteps: 5 } };\n`;
    const limited = await benchmarkWith({ "benchmark.ts": limitedSettings });
    const before = recordAll(planSlots(unlimited, { evalRuns: [], judgeRuns: [] }).slots);
    for (const evalRun of before.evalRuns) evalRun.metrics = metricsCosting(1);
    // The limits are new candidate inputs: every slot runs again, estimated from the unlimited runs.
    const replanned = planSlots(limited, before);
    expect(replanned.slots.every((slot) => slot.action === "candidate")).toBe(true);
    expect(replanned.estimate.usd).toBeCloseTo(4);
    // Once the first repetitions ran under the limits, they tell what the second ones will spend.
    const firsts = recordAll(replanned.slots.filter((slot) => slot.repetition === 1));
    for (const [index, evalRun] of firsts.evalRuns.entries()) {
      evalRun.id = `limited_${index}`;
      evalRun.metrics = metricsCosting(0.2);
      firsts.judgeRuns[index]!.evalRunId = evalRun.id;
    }
    const recorded = {
      evalRuns: [...before.evalRuns, ...firsts.evalRuns],
      judgeRuns: [...before.judgeRuns, ...firsts.judgeRuns],
    };
    const plan = planSlots(limited, recorded);
    expect(actions(plan.slots.filter((slot) => slot.action === "candidate"))).toEqual([
      "answer/p/a/2:candidate",
      "other/p/a/2:candidate",
    ]);
    // 0.2 each, not the median of every run of the eval and model (1: two unlimited runs, one limited).
    expect(plan.estimate.usd).toBeCloseTo(0.4);
  });

  it("says that maxTokens and maxSteps do not bound a candidate's maximum cost", async () => {
    const benchmark = await benchmarkWith({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: 1, candidate: { maxTokens: 1000, maxSteps: 5 } };\n`,
    });
    const maximum = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).maximum;
    expect(maximum.usd).toBeNull();
    expect(describeMaximum(maximum)).toBe(
      "maximum cost: unknown (2 unbounded items of work: set candidate.maxCostUSD to bound it (maxTokens and maxSteps stop a run, but do not bound what it spends))",
    );
  });

  it("prefers the same eval's median to the model's, and has no estimate for a model without history", async () => {
    const benchmark = await benchmarkWith();
    const slots = planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots;
    const left = slots.find((slot) => slot.evalId === "other" && slot.repetition === 2)!;
    const recorded = recordAll(slots.filter((slot) => slot !== left));
    for (const evalRun of recorded.evalRuns)
      evalRun.metrics = metricsCosting(evalRun.slot.evalId === "other" ? 1 : 0.25);
    // The model's median is 0.25 (0.25, 0.25, 1); the eval's own is 1.
    expect(planSlots(benchmark, recorded).estimate.usd).toBeCloseTo(1);
    expect(planSlots(benchmark, recorded, { models: ["p/new"] }).estimate.usd).toBeNull();
  });
});
