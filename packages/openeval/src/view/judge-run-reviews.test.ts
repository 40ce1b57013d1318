// The viewer's judge-run page data carries the reviews of the judged eval run: each criterion's reviewed value with the
// judge's beside it, every review with where it stands against this judge run, and a tampered review's problem; an
// export leaves the reviewers' emails out unless asked.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { reviewFile } from "../records/index.ts";
import { reviewEvalRun } from "../summary/index.ts";
import { withoutReviewerEmails } from "./export-run.ts";
import { RunCatalog } from "./run-catalog.ts";
import { ViewerData } from "./viewer-data.ts";

describe("a judge run's detail", () => {
  it("applies the eval run's latest review, keeps the judge's score and lists every review", async () => {
    const { store } = await recordedRun();
    const review = (score: 0 | 1, reason: string) =>
      reviewEvalRun({
        run: store.directory,
        evalRun: "eval_current",
        criterion: "correct",
        score,
        reason,
        by: { name: "Ada", email: "ada@example.com" },
      });
    const first = await review(0, "Wrong answer");
    const second = await review(1, "Right after all");
    store.close();
    const data = new ViewerData(RunCatalog.open({ run: store.directory, resultsRoot: "unused" }));
    try {
      const runId = data.runs().defaultRunId!;
      const detail = (await data.judgeRun(runId, "judge_eval_current"))!;
      expect(detail.criteria).toEqual([
        expect.objectContaining({
          id: "correct",
          value: 1,
          review: expect.objectContaining({
            id: second.review.id,
            judged: 1,
            judgeAgrees: true,
            reason: "Right after all",
          }),
        }),
      ]);
      expect(detail.reviews.map((standing) => [standing.review.id, standing.superseded, standing.active])).toEqual([
        [first.review.id, true, null],
        [second.review.id, false, { judgeRunId: "judge_eval_current", judged: 1, judgeAgrees: true }],
      ]);
      expect(detail.reviewProblems).toEqual([]);
      // The other eval run's judgment has no review.
      expect((await data.judgeRun(runId, "judge_eval_worse"))!.reviews).toEqual([]);

      const anonymous = withoutReviewerEmails(detail);
      expect(JSON.stringify(anonymous)).not.toContain("ada@example.com");
      expect(anonymous.reviews[1]!.review.reviewer).toEqual({ name: "Ada", email: null });
      expect(anonymous.criteria[0]!.review!.reviewer).toEqual({ name: "Ada", email: null });
      expect(JSON.stringify(detail)).toContain("ada@example.com");
    } finally {
      data.close();
    }
  });

  it("names a review whose file was edited, and leaves the judge's score", async () => {
    const { store } = await recordedRun();
    const { review } = await reviewEvalRun({
      run: store.directory,
      evalRun: "eval_current",
      criterion: "correct",
      score: 0,
      reason: "Wrong",
      by: { name: "Ada" },
    });
    store.close();
    writeFileSync(join(store.directory, reviewFile(review.id)), "{}");
    const data = new ViewerData(RunCatalog.open({ run: store.directory, resultsRoot: "unused" }));
    try {
      const detail = (await data.judgeRun(data.runs().defaultRunId!, "judge_eval_current"))!;
      expect(detail.criteria).toEqual([expect.objectContaining({ value: 1, review: null })]);
      expect(detail.reviewProblems).toEqual([
        `review ${review.id}: reviews/${review.id}.json was changed after it was recorded (sha256 differs from the store's); its score is not used (restore the file, or record a new review with \`openeval review\`)`,
      ]);
    } finally {
      data.close();
    }
  });
});
