// The reviewed slots of a run are a label set: each judge's κ with the people, rates and counts, per criterion and
// judge model (each judgment of a panel, and their combination), on a constructed label set with a known answer.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { ResultsStore, type CriterionScore, type PanelJudgment } from "../records/index.ts";
import { calibrateAgainstReviews } from "./calibrate-against-reviews.ts";
import { reviewEvalRun } from "./review-eval-run.ts";

/** Per repetition: the judge.ts score of `correct` and the review's; `brief` (a two-judge panel) on some. */
const SLOTS: { correct: [number, 0 | 1 | null]; brief?: [a: number, b: number, human: 0 | 1] }[] = [
  // 4 both pass, 3 both fail, 1 only the judge passes, 2 only the human passes, 1 review unresolved.
  { correct: [1, 1], brief: [1, 1, 1] },
  { correct: [1, 1], brief: [1, 1, 1] },
  { correct: [1, 1], brief: [0, 1, 0] },
  { correct: [1, 1], brief: [0, 1, 0] },
  { correct: [0, 0] },
  { correct: [0, 0] },
  { correct: [0, 0] },
  { correct: [1, 0] },
  { correct: [0, 1] },
  { correct: [0, 1] },
  { correct: [1, null] },
];

async function reviewedRun(): Promise<string> {
  const benchmark = await loadBenchmark(
    await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["p/m"], repetitions: ${SLOTS.length}, judge: { model: "a/judge", models: ["b/judge"] } };\n`,
      }),
    ),
  );
  const store = ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
  store.writeRun({
    id: "r",
    name: "calibration",
    benchmarkDirectory: benchmark.directory,
    createdAt: "2026-12-01T10:00:00.000Z",
    opencodeVersion: "1.18.33",
    models: ["p/m"],
    repetitions: SLOTS.length,
    evals: ["answer"],
  });
  const time = { startedAt: "2026-12-01T10:00:00.000Z", completedAt: "2026-12-01T10:00:01.000Z", elapsedMs: 1000 };
  SLOTS.forEach((slot, index) => {
    const key = { evalId: "answer", model: "p/m", variant: "current", repetition: index + 1 };
    const id = `eval_${index + 1}`;
    store.saveEvalRun({
      id,
      runId: "r",
      slot: key,
      control: false,
      state: "completed",
      infrastructureError: false,
      error: null,
      ...time,
      input: { candidateFingerprint: "c", prompt: "p", timeoutMs: 1, maxCostUSD: null, opencodeVersion: "1.18.33" },
      evidence: null,
      metrics: null,
    });
    const rubric = (value: number): Record<string, CriterionScore> => ({ brief: { value, source: "judge.md" } });
    const panel = slot.brief
      ? [slot.brief[0], slot.brief[1]].map(
          (value, judge): PanelJudgment => ({
            model: judge === 0 ? "a/judge" : "b/judge",
            repeat: 0,
            fingerprint: "f",
            state: "completed",
            scores: rubric(value),
            error: null,
            directory: `judge-runs/judge_${index + 1}/rubric-${judge}`,
            gradedBy: `judge_${index + 1}`,
          }),
        )
      : undefined;
    store.saveJudgeRun({
      id: `judge_${index + 1}`,
      runId: "r",
      evalRunId: id,
      slot: key,
      kind: slot.brief ? "hybrid" : "code",
      state: "completed",
      judgeFingerprint: "j",
      ...time,
      scores: {
        correct: { value: slot.correct[0], source: "judge.ts" },
        ...(slot.brief ? rubric((slot.brief[0] + slot.brief[1]) / 2) : {}),
      },
      ...(panel ? { panel, combine: "mean" as const } : {}),
      unscored: false,
      error: null,
      directory: `judge-runs/judge_${index + 1}`,
    });
  });
  store.close();
  for (const [index, slot] of SLOTS.entries()) {
    const review = (criterion: string, score: 0 | 1 | null) =>
      reviewEvalRun({
        run: store.directory,
        evalRun: `eval_${index + 1}`,
        criterion,
        score,
        reason: "checked",
        by: { name: "Ada" },
      });
    // A first opinion changed later: only the latest review of a criterion is its label.
    if (index === 0) await review("correct", 0);
    await review("correct", slot.correct[1]);
    if (slot.brief) await review("brief", slot.brief[2]);
  }
  return store.directory;
}

describe("calibrate --against-reviews", () => {
  it("gives each judge's κ, rates and counts against the people, and flags those below judge.minAgreement", async () => {
    const calibration = await calibrateAgainstReviews({ run: await reviewedRun() });
    expect([calibration.labels, calibration.unresolvedLabels, calibration.threshold, calibration.problems]).toEqual([
      15,
      1,
      0.67,
      [],
    ]);
    const byJudge = Object.fromEntries(calibration.judges.map((judge) => [`${judge.criterion} ${judge.judge}`, judge]));
    expect(Object.keys(byJudge)).toEqual(["brief a/judge", "brief b/judge", "brief panel (mean)", "correct judge.ts"]);

    // judge.ts on `correct`: tp 4, tn 3, fp 1, fn 2 (the unresolved review left out). observed = 7/10; the judge passes
    // 5/10 and the people 6/10, so chance = 0.5 × 0.6 + 0.5 × 0.4 = 0.5 and κ = (0.7 − 0.5) / 0.5 = 0.4 < 0.67.
    const code = byJudge["correct judge.ts"]!;
    expect(code).toMatchObject({ units: 10, truePositives: 4, trueNegatives: 3, falsePositives: 1, falseNegatives: 2 });
    expect([code.unresolved, code.flagged]).toEqual([1, true]);
    expect(code.kappa).toBeCloseTo(0.4, 12);
    expect(code.truePositiveRate).toBeCloseTo(4 / 6, 12);
    expect(code.trueNegativeRate).toBeCloseTo(3 / 4, 12);

    // `brief`, people 1 1 0 0: a/judge scored 1 1 0 0 (κ 1); b/judge 1 1 1 1 and the panel's mean 1 1 0.5 0.5 pass all
    // four: observed 0.5, chance 1 × 0.5 + 0 × 0.5 = 0.5, κ = 0.
    expect(byJudge["brief a/judge"]).toMatchObject({ kappa: 1, units: 4, flagged: false });
    expect(byJudge["brief b/judge"]).toMatchObject({
      kappa: 0,
      truePositiveRate: 1,
      trueNegativeRate: 0,
      flagged: true,
    });
    expect(byJudge["brief panel (mean)"]).toMatchObject({ kappa: 0, flagged: true });
  });
});
