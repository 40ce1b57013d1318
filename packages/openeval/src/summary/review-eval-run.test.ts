// A review decides its criterion's score in the summary and the verdict, survives a rejudge (flagged when the judge
// now agrees), and is refused with a message saying what to pass when its run, eval run, criterion, score or reason is wrong.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { reviewFile, type JudgeRun, type ResultsStore } from "../records/index.ts";
import { formatMarkdownSummary } from "../report/markdown-summary.ts";
import { formatSummary } from "../report/summary-table.ts";
import { parseReviewScore, reviewEvalRun, type ReviewOptions } from "./review-eval-run.ts";
import { summarizeRun } from "./summarize-run.ts";

/** The current arm judged again, its `correct` scored `value` (a rejudge, as the runner records it). */
function rejudge(store: ResultsStore, id: string, value: number): JudgeRun {
  const judged = store.judgeRuns("eval_current")[0]!;
  const judgeRun: JudgeRun = {
    ...judged,
    id,
    directory: `judge-runs/${id}`,
    scores: { correct: { value, source: "judge.ts" } },
    integrity: undefined,
  };
  store.saveJudgeRun(judgeRun);
  return judgeRun;
}

const BY = { name: "Ada", email: "ada@example.com" };

async function review(store: ResultsStore, options: Partial<ReviewOptions> = {}) {
  return reviewEvalRun({
    run: store.directory,
    evalRun: "eval_current",
    criterion: "correct",
    score: 1,
    reason: "The answer is right",
    by: BY,
    ...options,
  });
}

describe("a review", () => {
  it("flips a failing criterion: the score and the verdict follow; a rejudge keeps it and says when the judge agrees", async () => {
    const { benchmark, store } = await recordedRun();
    rejudge(store, "judge_wrong", 0);
    const before = await summarizeRun(benchmark, store, {}, "r");
    expect([before.models[0]!.score.value, before.verdict.status]).toEqual([0, "fail"]);

    const { review: recorded, reviews } = await review(store, { evalRun: "eval_cur" });
    expect(recorded).toMatchObject({
      evalRunId: "eval_current",
      criterion: "correct",
      score: 1,
      reviewer: BY,
      supersedes: { judgeRunId: "judge_wrong", value: 0 },
    });
    expect(reviews).toEqual([
      { review: recorded, superseded: false, active: { judgeRunId: "judge_wrong", judged: 0, judgeAgrees: false } },
    ]);
    const after = await summarizeRun(benchmark, store, {}, "r");
    expect([after.models[0]!.score.value, after.verdict.status]).toEqual([100, "pass"]);
    expect(after.reviews).toEqual(reviews);
    const line = "answer × p/m #1 correct: 1 (judge 0) by Ada: The answer is right";
    expect(formatSummary(after)).toContain(
      `1 criterion reviewed by people (their scores replace the judge's):\n  ${line}`,
    );
    expect(formatMarkdownSummary(after)).toContain(
      `<details><summary>1 criterion reviewed by people (their scores replace the judge's)</summary>\n\n- ${line}`,
    );

    // A rejudge that still fails it: the review still decides; one that now passes it: flagged as agreeing.
    rejudge(store, "judge_again", 0);
    const kept = await summarizeRun(benchmark, store, {}, "r");
    expect([kept.models[0]!.score.value, kept.verdict.status]).toEqual([100, "pass"]);
    expect(kept.reviews![0]!.active).toEqual({ judgeRunId: "judge_again", judged: 0, judgeAgrees: false });
    rejudge(store, "judge_agrees", 1);
    const agreed = await summarizeRun(benchmark, store, {}, "r");
    expect(agreed.reviews![0]!.active).toEqual({ judgeRunId: "judge_agrees", judged: 1, judgeAgrees: true });
    store.close();
  });

  it("that is later reviewed again is superseded by the latest", async () => {
    const { benchmark, store } = await recordedRun();
    await review(store, { score: 0, reason: "Wrong after all" });
    const { reviews } = await review(store, { score: null, reason: "Cannot tell from the recording" });
    expect(reviews.map((each) => [each.review.score, each.superseded])).toEqual([
      [0, true],
      [null, false],
    ]);
    const summary = await summarizeRun(benchmark, store, {}, "r");
    // Unresolved: the slot stays in the denominator unscored, and the verdict cannot pass.
    expect(summary.verdict.status).toBe("unknown");
    store.close();
  });

  it("whose file was edited is reported and not used: the summary is incomplete and the judge's score stands", async () => {
    const { benchmark, store } = await recordedRun();
    const { review: recorded } = await review(store, { score: 0, reason: "Wrong" });
    writeFileSync(join(store.directory, reviewFile(recorded.id)), JSON.stringify({ ...recorded, score: 1 }));
    const summary = await summarizeRun(benchmark, store, {}, "r");
    expect(summary.models[0]!.score.value).toBe(100);
    expect(summary.complete).toBe(false);
    expect(summary.integrity.map((problem) => problem.message)).toEqual([
      `review ${recorded.id}: reviews/${recorded.id}.json was changed after it was recorded (sha256 differs from the store's); its score is not used (restore the file, or record a new review with \`openeval review\`)`,
    ]);
    store.close();
  });

  it("takes its reviewer from git config when --by is not given", async () => {
    const { store } = await recordedRun();
    const home = store.directory;
    writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Grace\n\temail = grace@example.com\n");
    const previous = { HOME: process.env.HOME, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL };
    process.env.GIT_CONFIG_GLOBAL = join(home, ".gitconfig");
    try {
      const { review: recorded } = await review(store, { by: undefined, cwd: home });
      expect(recorded.reviewer).toEqual({ name: "Grace", email: "grace@example.com" });
      const { review: named } = await review(store, { by: { name: "Ada" }, cwd: home });
      expect(named.reviewer).toEqual({ name: "Ada", email: "grace@example.com" });
    } finally {
      for (const [key, value] of Object.entries(previous))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
    store.close();
  });
});

describe("a review refused", () => {
  it("names the problem and what to pass instead", async () => {
    const { store } = await recordedRun();
    const refused = async (options: Partial<ReviewOptions>) => {
      const error = await review(store, options).then(
        () => null,
        (caught: unknown) => caught as { code: string; message: string },
      );
      return error && [error.code, error.message];
    };
    expect(await refused({ run: join(store.directory, "..", "nope") })).toEqual([
      "OE_RUN_NOT_FOUND",
      expect.stringContaining("is not a run: pass a results/<run-id> folder"),
    ]);
    expect(await refused({ evalRun: "eval_nope" })).toEqual([
      "OE_REVIEW_EVAL_RUN_UNKNOWN",
      `review eval_nope: no such eval run in this run; \`openeval plan\` lists the eval runs and what they need (run ${store.directory})`,
    ]);
    expect(await refused({ evalRun: "eval_" })).toEqual([
      "OE_REVIEW_EVAL_RUN_UNKNOWN",
      `review eval_: 2 eval runs start with it (eval_current, eval_worse); give more of the id (run ${store.directory})`,
    ]);
    expect(await refused({ criterion: "style" })).toEqual([
      "OE_REVIEW_CRITERION_UNKNOWN",
      'review eval_current: its judgment (judge run judge_eval_current) has no criterion "style"; pass --criterion with one of: correct',
    ]);
    expect(await refused({ reason: "  " })).toEqual([
      "OE_REVIEW_REASON_MISSING",
      'a review needs its reason: pass --reason "…" saying why the judge\'s score is wrong (it is kept with the review)',
    ]);
    expect(await refused({ score: 2 as never })).toEqual([
      "OE_REVIEW_SCORE_INVALID",
      '--score takes 1 (pass), 0 (fail), 0.5 (half credit) or unresolved; got "2"',
    ]);
    const judged = store.judgeRuns("eval_worse")[0]!;
    store.saveJudgeRun({
      ...judged,
      id: "judge_failed",
      state: "failed",
      scores: null,
      error: "judge.ts threw",
      directory: "judge-runs/judge_failed",
      integrity: undefined,
    });
    expect(await refused({ evalRun: "eval_worse" })).toEqual([
      "OE_REVIEW_NOT_JUDGED",
      "review eval_worse: its latest judgment (judge run judge_failed) failed, so there is no judge's score to review; grade it with `openeval rejudge eval_worse` first",
    ]);
    store.close();
  });

  it("reads the command line's scores", () => {
    expect(["1", "0", "0.5", "unresolved", "1.0"].map(parseReviewScore)).toEqual([1, 0, 0.5, null, 1]);
    for (const bad of ["2", "pass", "", "0.25"])
      expect(() => parseReviewScore(bad)).toThrow(
        `--score takes 1 (pass), 0 (fail), 0.5 (half credit) or unresolved; got "${bad}"`,
      );
  });
});
