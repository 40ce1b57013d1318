// Journey: a person reviews a failing criterion with `openeval review`; the report's score and verdict follow, a real
// `openeval rejudge` keeps the review (the code judge still fails it, and says so beside the review), `calibrate
// --against-reviews` measures the judge against the reviews, and `openeval verify` names a review file edited after.
// The run is written through the results store with real recordings, so the rejudge runs the eval's judge.ts and no
// model session starts.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { recordedBenchmark, RUN_ID } from "../helpers/recorded-benchmark.ts";

/** One model, two repetitions, each recorded answering "42" and judged by judge.ts: `correct` fails both. */
async function failingRun(): Promise<{ benchmark: string; run: string }> {
  const directory = await recordedBenchmark(["p/m"], () => 0, undefined, undefined, { response: "42" });
  return { benchmark: directory, run: join(directory, "results", RUN_ID) };
}

let benchmark: string;
let run: string;

const report = async () => {
  const result = await runCli(["report", RUN_ID, "--benchmark", benchmark, "--json"]);
  return JSON.parse(result.stdout) as {
    verdict: { status: string };
    models: { score: { value: number | null } }[];
    reviews: {
      review: { id: string; score: number | null };
      active: { judgeRunId: string; judged: number; judgeAgrees: boolean } | null;
    }[];
  };
};

const review = (evalRun: string, ...flags: string[]) =>
  runCli(["review", RUN_ID, evalRun, "--benchmark", benchmark, ...flags]);

beforeAll(async () => {
  ({ benchmark, run } = await failingRun());
});

describe("openeval review", () => {
  it("flips a failing criterion: the report's score and verdict follow, and a rejudge keeps the review", async () => {
    const before = await report();
    expect([before.verdict.status, before.models[0]!.score.value]).toEqual(["fail", 0]);

    const first = await review(
      "eval_p_m_1",
      "--criterion",
      "correct",
      "--score",
      "1",
      "--reason",
      "42 is right here",
      "--by",
      "Ada",
      "--json",
    );
    expect(first.exitCode, first.stderr).toBe(0);
    const recorded = JSON.parse(first.stdout) as {
      review: { id: string; reviewer: { name: string }; supersedes: unknown };
    };
    expect(recorded.review.reviewer.name).toBe("Ada");
    expect(recorded.review.supersedes).toEqual({ judgeRunId: "judge_eval_p_m_1", value: 0 });
    const second = await review(
      "eval_p_m_2",
      "--criterion",
      "correct",
      "--score",
      "1",
      "--reason",
      "Also right",
      "--by",
      "Ada",
    );
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      "Reviewed correct of eval run eval_p_m_2: 1 (the judge scored 0 in judge run judge_eval_p_m_2)",
    );

    const after = await report();
    expect([after.verdict.status, after.models[0]!.score.value]).toEqual(["pass", 100]);
    expect(after.reviews.map((entry) => entry.active)).toEqual([
      { judgeRunId: "judge_eval_p_m_1", judged: 0, judgeAgrees: false },
      { judgeRunId: "judge_eval_p_m_2", judged: 0, judgeAgrees: false },
    ]);
    const plain = await runCli(["report", RUN_ID, "--benchmark", benchmark]);
    expect(plain.stdout).toContain("2 criteria reviewed by people (their scores replace the judge's):");
    expect(plain.stdout).toContain("correct: 1 (judge 0) by Ada: 42 is right here");

    // The code judge grades the recording again and still fails it: a new judge run, and the review still decides.
    const rejudged = await runCli(["rejudge", "eval_p_m_1", "--benchmark", benchmark, "--run", run]);
    expect(rejudged.exitCode, rejudged.stderr).toBe(0);
    const kept = await report();
    expect([kept.verdict.status, kept.models[0]!.score.value]).toEqual(["pass", 100]);
    const active = kept.reviews[0]!.active!;
    expect(active.judgeRunId).not.toBe("judge_eval_p_m_1");
    expect([active.judged, active.judgeAgrees]).toEqual([0, false]);
  }, 120_000);

  it("refuses a wrong criterion, score, reason, eval run or run, saying what to pass", async () => {
    const refused = async (...args: string[]) => {
      const result = await review(...(args as [string, ...string[]]));
      expect(result.exitCode).toBe(2);
      return result.stderr.trim();
    };
    // eval_p_m_1 was judged again above: its judgment is the rejudge's.
    expect(await refused("eval_p_m_1", "--criterion", "style", "--score", "1", "--reason", "r")).toMatch(
      /^error OE_REVIEW_CRITERION_UNKNOWN: review eval_p_m_1: its judgment \(judge run judge_[0-9a-f-]+\) has no criterion "style"; pass --criterion with one of: correct$/,
    );
    const before = (await report()).reviews.length;
    expect(
      await refused("eval_p_m_1", "--criterion", "correct", "--score", "1", "--reason", "r", "--save-regression"),
    ).toMatch(
      /^error OE_REVIEW_REGRESSION_NEEDS_CASE: review eval_p_m_1 --save-regression: eval answer ran it without cases/,
    );
    // Refused before anything was recorded.
    expect((await report()).reviews).toHaveLength(before);
    expect(await refused("eval_p_m_1", "--criterion", "correct", "--score", "yes", "--reason", "r")).toBe(
      'error OE_REVIEW_SCORE_INVALID: --score takes 1 (pass), 0 (fail), 0.5 (half credit) or unresolved; got "yes"',
    );
    expect(await refused("eval_p_m_1", "--criterion", "correct", "--score", "0")).toBe(
      'error OE_REVIEW_REASON_MISSING: a review needs its reason: pass --reason "…" saying why the judge\'s score is wrong (it is kept with the review)',
    );
    expect(await refused("eval_9", "--criterion", "correct", "--score", "0", "--reason", "r")).toMatch(
      /^error OE_REVIEW_EVAL_RUN_UNKNOWN: review eval_9: no such eval run in this run/,
    );
    const noRun = await runCli([
      "review",
      "nope",
      "eval_p_m_1",
      "--benchmark",
      benchmark,
      "--criterion",
      "correct",
      "--score",
      "0",
      "--reason",
      "r",
    ]);
    expect([noRun.exitCode, noRun.stderr]).toEqual([
      2,
      expect.stringMatching(/^error OE_RUN_NOT_FOUND: nope is not a run/),
    ]);
  });

  it("is measured against by calibrate --against-reviews, and an edited review file is named by verify", async () => {
    const calibration = await runCli([
      "calibrate",
      "--against-reviews",
      "--benchmark",
      benchmark,
      "--run",
      run,
      "--json",
    ]);
    // The judge failed both criteria the people passed: tp 0, tn 0, fp 0, fn 2; chance = 0 × 1 + 1 × 0 = 0, κ = 0.
    expect(calibration.exitCode, calibration.stderr).toBe(1);
    expect(JSON.parse(calibration.stdout).judges).toEqual([
      expect.objectContaining({
        criterion: "correct",
        judge: "judge.ts",
        units: 2,
        falseNegatives: 2,
        kappa: 0,
        flagged: true,
      }),
    ]);

    const withNew = await runCli(["calibrate", "--against-reviews", "--new", "--benchmark", benchmark]);
    expect([withNew.exitCode, withNew.stderr.trim()]).toEqual([
      2,
      "error OE_USAGE: --against-reviews reads a recorded run's reviews and runs nothing; drop --new (pick the run with --run <dir>)",
    ]);

    const verified = await runCli(["verify", RUN_ID, "--benchmark", benchmark]);
    expect(verified.exitCode, verified.stderr).toBe(0);
    expect(verified.stdout).toContain("2 reviews");
    const { reviews } = await report();
    const file = join(run, "reviews", `${reviews[1]!.review.id}.json`);
    writeFileSync(file, readFileSync(file, "utf8").replace('"score": 1', '"score": 0'));
    const caught = await runCli(["verify", RUN_ID, "--benchmark", benchmark]);
    expect(caught.exitCode).toBe(1);
    expect(caught.stderr).toContain(
      `review ${reviews[1]!.review.id}: reviews/${reviews[1]!.review.id}.json was changed after it was recorded (sha256 differs from the store's)`,
    );
  });
});
