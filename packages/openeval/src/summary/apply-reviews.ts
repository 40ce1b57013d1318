// Where people's reviews meet the judges' scores: a criterion's scored value is the latest review of its eval run and
// criterion, with the judge's own value kept beside it. Reviews attach to the eval run, not to one judge run, so a
// rejudge keeps them, and a judge whose new score equals the review's is flagged as now agreeing.
import type { CriterionScore, JudgeRun, Review, ScoreReview } from "../records/index.ts";

/** A criterion's score as read: a review, when one decides it, with the judge's value in `review.judged`. */
export type ReviewedScore = CriterionScore & { review?: ScoreReview };

/** A judge run as read with reviews applied: only `scores` differs from the record. */
export type ReviewedJudgeRun<J extends Pick<JudgeRun, "id" | "evalRunId" | "scores">> = Omit<J, "scores"> & {
  scores: Record<string, ReviewedScore> | null;
};

/** One review with where it stands now (RunSummary.reviews, `openeval review --json`). */
export interface ReviewStanding {
  review: Review;
  /** A later review of the same eval run and criterion replaced it. */
  superseded: boolean;
  /**
   * The judge run it applies to now (the slot's active judgment) and that judge's own score; null when it applies to
   * none (its eval run is no longer the slot's active one, or has no completed judgment with this criterion).
   */
  active: { judgeRunId: string; judged: number | null; judgeAgrees: boolean } | null;
}

/** The run's reviews, the latest of each eval run and criterion found by lookup. */
export class LatestReviews {
  private readonly byEvalRun = new Map<string, Map<string, Review>>();

  constructor(readonly all: readonly Review[]) {
    for (const review of all) {
      const criteria = this.byEvalRun.get(review.evalRunId) ?? new Map<string, Review>();
      criteria.set(review.criterion, review);
      this.byEvalRun.set(review.evalRunId, criteria);
    }
  }

  get size(): number {
    return this.all.length;
  }

  latest(evalRunId: string, criterion: string): Review | undefined {
    return this.byEvalRun.get(evalRunId)?.get(criterion);
  }

  /**
   * The judge run with each reviewed criterion's value replaced by its latest review's score; the same object when
   * none of its criteria is reviewed (a large run's unreviewed judge runs are not copied).
   */
  apply<J extends Pick<JudgeRun, "id" | "evalRunId" | "scores">>(judgeRun: J): ReviewedJudgeRun<J>;
  apply<J extends Pick<JudgeRun, "id" | "evalRunId" | "scores">>(judgeRun: J | null): ReviewedJudgeRun<J> | null;
  apply<J extends Pick<JudgeRun, "id" | "evalRunId" | "scores">>(judgeRun: J | null): ReviewedJudgeRun<J> | null {
    const reviews = judgeRun && this.byEvalRun.get(judgeRun.evalRunId);
    if (!judgeRun || !reviews || judgeRun.scores === null) return judgeRun;
    const scores: Record<string, ReviewedScore> = { ...judgeRun.scores };
    for (const [criterion, review] of reviews) {
      const judged = judgeRun.scores[criterion];
      if (judged === undefined) continue;
      scores[criterion] = { ...judged, value: review.score, review: scoreReview(review, judged.value) };
    }
    return { ...judgeRun, scores };
  }

  /** A judgment's credits (creditsOf) with each reviewed criterion's credit its latest review's score. */
  applyCredits(evalRunId: string, credits: Record<string, number | null> | null): Record<string, number | null> | null {
    const reviews = this.byEvalRun.get(evalRunId);
    if (!credits || !reviews) return credits;
    const reviewed = { ...credits };
    for (const [criterion, review] of reviews) if (criterion in credits) reviewed[criterion] = review.score;
    return reviewed;
  }

  /** Every review (history included), with the judge run each latest one applies to among `active`. */
  standings(active: readonly Pick<JudgeRun, "id" | "evalRunId" | "scores">[]): ReviewStanding[] {
    const judgeRuns = new Map(active.map((judgeRun) => [judgeRun.evalRunId, judgeRun]));
    return this.all.map((review) => {
      const superseded = this.latest(review.evalRunId, review.criterion) !== review;
      const judged = judgeRuns.get(review.evalRunId)?.scores?.[review.criterion];
      const judgeRun = judgeRuns.get(review.evalRunId);
      return {
        review,
        superseded,
        active:
          superseded || judged === undefined || !judgeRun
            ? null
            : { judgeRunId: judgeRun.id, judged: judged.value, judgeAgrees: judged.value === review.score },
      };
    });
  }
}

function scoreReview(review: Review, judged: number | null): ScoreReview {
  return {
    id: review.id,
    judged,
    reviewer: review.reviewer,
    at: review.at,
    reason: review.reason,
    judgeAgrees: judged === review.score,
    supersedes: review.supersedes,
  };
}
