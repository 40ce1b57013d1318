// Adaptive repetitions replayed from recorded work, round by round as the runner would record it: a variant that
// always passes against a current that always fails is decided after few repetitions and its later ones are spared;
// identical arms are never decided and run to max; baseline mode without baseline.json says it cannot decide.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { recordAll } from "../plan/fixtures/recorded-work.ts";
import type { EvalRun, JudgeRun } from "../records/index.ts";
import { planAdaptively } from "./adaptive-rounds.ts";

const CASES = Array.from({ length: 9 }, (_, index) => `{"id": "c${index}", "input": {"n": ${index}}}`).join("\n");

async function benchmarkWith(repetitions: string, variants = `{ hinted: { files: { "workspace/HINT.md": "hint" } } }`) {
  return loadBenchmark(
    await writeTree({
      "benchmark.ts": `export default { models: ["p/a"], repetitions: ${repetitions}, variants: ${variants}, candidate: { maxCostUSD: 1 } };\n`,
      "evals/count/prompt.md": "Count to {{input.n}}.\n",
      "evals/count/cases.jsonl": `${CASES}\n`,
      "evals/count/judge.ts": "export default () => ({ scores: { ok: true } });\n",
    }),
  );
}

/** Runs rounds as the runner does: record what each round plans, scored by `credit`, until nothing is left to do. */
async function runRounds(benchmark: BenchmarkDefinition, credit: (variant: string) => number) {
  const records: { evalRuns: EvalRun[]; judgeRuns: JudgeRun[] } = { evalRuns: [], judgeRuns: [] };
  const rounds: number[][] = [];
  for (;;) {
    const { plan, adaptive } = await planAdaptively(benchmark, records, {});
    const work = plan.slots.filter((slot) => slot.action === "candidate");
    if (work.length === 0) return { plan, adaptive: adaptive!, rounds };
    rounds.push([...new Set(work.map((slot) => slot.repetition))]);
    const recorded = recordAll(work);
    recorded.evalRuns.forEach((evalRun, index) => {
      evalRun.id = `eval_${records.evalRuns.length + index}`;
      evalRun.metrics = { cost: { usd: 0.01 } } as EvalRun["metrics"];
    });
    recorded.judgeRuns.forEach((judgeRun, index) => {
      judgeRun.id = `judge_${records.judgeRuns.length + index}`;
      judgeRun.evalRunId = `eval_${records.evalRuns.length + index}`;
      judgeRun.scores = { ok: { value: credit(judgeRun.slot.variant), source: "judge.ts" } } as JudgeRun["scores"];
    });
    records.evalRuns.push(...recorded.evalRuns);
    records.judgeRuns.push(...recorded.judgeRuns);
  }
}

describe("adaptive repetitions", () => {
  it("stop a variant that passes against a current that fails once decided, and count what they spared", async () => {
    const benchmark = await benchmarkWith(`{ min: 1, max: 5, stopWhen: { decided: "variants" } }`);
    const { plan, adaptive, rounds } = await runRounds(benchmark, (variant) => (variant === "hinted" ? 1 : 0));
    // Nine paired differences of 1 after round 1 already leave 0 outside the interval of look 1.
    expect(rounds).toEqual([[1]]);
    expect(adaptive.level).toBe(1);
    expect(adaptive.comparisons).toEqual([
      {
        a: "p/a [hinted]",
        b: "p/a",
        decidedAfter: 1,
        look: expect.objectContaining({ decision: "different", mean: 1, pairs: 9 }),
      },
    ]);
    // Both arms' repetitions 2–5 of nine cases are spared, each at its candidate's recorded $0.01.
    expect(adaptive.saved.slots).toBe(2 * 9 * 4);
    expect(adaptive.saved.usd).toBeCloseTo(0.72, 10);
    const spared = plan.slots.filter((slot) => slot.deferredBy === "decided");
    expect(spared[0]!.reason).toBe(
      "Adaptive repetitions: decided after repetition 1 (p/a [hinted] against p/a different)",
    );
  });

  it("run identical arms to max, never deciding them", async () => {
    const benchmark = await benchmarkWith(`{ min: 2, max: 4, stopWhen: { decided: "variants" } }`);
    const { adaptive, rounds } = await runRounds(benchmark, () => 1);
    expect(rounds).toEqual([[1, 2], [3], [4]]);
    expect(adaptive).toMatchObject({ level: 4, saved: { slots: 0, usd: 0 } });
    expect(adaptive.comparisons[0]).toMatchObject({ decidedAfter: null, look: { decision: null, mean: 0 } });
  });

  it("decide identical arms equivalent when a margin is given and the interval fits inside it", async () => {
    const benchmark = await benchmarkWith(`{ min: 2, max: 10, stopWhen: { decided: "variants", margin: 0.9 } }`);
    const { adaptive } = await runRounds(benchmark, () => 1);
    expect(adaptive.comparisons[0]!.look.decision).toBe("equivalent");
    expect(adaptive.level).toBeLessThan(10);
  });

  it("say they cannot decide against baseline.json when there is none, and run every slot to max", async () => {
    const benchmark = await benchmarkWith(`{ min: 1, max: 2, stopWhen: { decided: "baseline" } }`);
    const { adaptive, rounds } = await runRounds(benchmark, () => 1);
    expect(rounds).toEqual([[1], [2]]);
    expect(adaptive.comparisons).toEqual([]);
    expect(adaptive.note).toBe(
      "no baseline.json to decide against: every slot runs 2 repetitions; set one with `openeval baseline set`",
    );
  });

  it("decide each candidate against baseline.json's score of the same case", async () => {
    const benchmark = await benchmarkWith(`{ min: 1, max: 4, stopWhen: { decided: "baseline" } }`);
    const cases = Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`c${index}`, { ok: 1 }]));
    const entry = (variant?: string) => ({
      evalId: "count",
      model: "p/a",
      ...(variant ? { variant } : {}),
      candidateFingerprints: [],
      judgeFingerprints: [],
      criteria: { ok: 1 },
      cases,
    });
    await writeFile(
      join(benchmark.directory, "baseline.json"),
      JSON.stringify({
        format: "openeval.baseline",
        version: 1,
        runId: "r0",
        createdAt: "2026-12-01T00:00:00.000Z",
        verdict: "pass",
        acceptedFailing: false,
        gate: [],
        entries: [entry(), entry("hinted")],
      }),
    );
    // The variant holds the baseline's 1 on every case; current fell to 0 on every case.
    const { adaptive, rounds } = await runRounds(benchmark, (variant) => (variant === "hinted" ? 1 : 0));
    expect(rounds).toEqual([[1], [2], [3], [4]]);
    expect(adaptive.comparisons.map((comparison) => [comparison.a, comparison.b, comparison.look.decision])).toEqual([
      ["p/a", "baseline", "different"],
      ["p/a [hinted]", "baseline", null],
    ]);
    expect(adaptive.comparisons[0]!.decidedAfter).toBe(1);
    // The variant stays undecided (no margin), so its repetitions run to max; current's stop after the first.
    expect(adaptive.level).toBe(4);
    expect(adaptive.saved.slots).toBe(9 * 3);
  });

  it("are refused at load when they cannot compare what they are told to, naming the key", async () => {
    const problem = async (repetitions: string, variants = "{}") => {
      try {
        await benchmarkWith(repetitions, variants);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(await problem(`{ min: 1, max: 3, stopWhen: { decided: "variants" } }`)).toContain(
      'repetitions.stopWhen.decided: "variants" compares each variant with current, and benchmark.ts declares no variant',
    );
    expect(await problem(`{ min: 4, max: 3, stopWhen: { decided: "models" } }`)).toContain(
      "repetitions.min: must be at most max",
    );
    expect(await problem(`{ min: 1, max: 3, stopWhen: { decided: "sometimes" } }`)).toContain(
      "repetitions.stopWhen.decided",
    );
  });
});
