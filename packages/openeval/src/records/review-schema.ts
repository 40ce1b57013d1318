// A person's review of one criterion of one eval run: the score they give instead of the judge's, who, when and why,
// and the judge's score it supersedes. Kept append-only beside the store (records/reviews.ts).
import * as z from "zod";
import { SlotKeySchema } from "./schema.ts";

export const REVIEW_FORMAT = "openeval.review";

/** The scores a review may give: pass, fail, half credit, or unresolved (null: the slot stays in the denominator unscored). */
export const REVIEW_SCORES = [1, 0, 0.5, null] as const;

export const ReviewerSchema = z.object({
  /** `--by`, else `git config user.name`; null when neither is known. */
  name: z.string().nullable(),
  /** `git config user.email`; null when unknown. An export leaves it out unless asked. */
  email: z.string().nullable(),
});

export const ReviewSchema = z.object({
  format: z.literal(REVIEW_FORMAT),
  id: z.string(),
  runId: z.string(),
  evalRunId: z.string(),
  slot: SlotKeySchema,
  criterion: z.string(),
  /** 1, 0 or 0.5; null: unresolved. */
  score: z.union([z.literal(1), z.literal(0), z.literal(0.5)]).nullable(),
  reason: z.string().min(1),
  reviewer: ReviewerSchema,
  /** When it was recorded (ISO time). */
  at: z.string(),
  /** The judgment the reviewer saw: the judge run that was active for the eval run then, and its score of the criterion. */
  supersedes: z.object({ judgeRunId: z.string(), value: z.number().nullable() }),
});

export type Review = z.infer<typeof ReviewSchema>;
export type Reviewer = z.infer<typeof ReviewerSchema>;
export type ReviewScore = Review["score"];

/**
 * What a criterion's score carries when a review decides it: the review, and what this judge run scored, kept beside
 * it. `judgeAgrees`: this judge's score equals the review's (a rejudge now agrees with the person).
 */
export interface ScoreReview {
  id: string;
  /** This judge run's own score of the criterion, before the review. */
  judged: number | null;
  reviewer: Reviewer;
  at: string;
  reason: string;
  judgeAgrees: boolean;
  /** The judge run the reviewer saw (another one when the eval run was judged again since). */
  supersedes: Review["supersedes"];
}
