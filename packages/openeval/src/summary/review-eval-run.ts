// reviewEvalRun(): a person's score for one criterion of one eval run, recorded in place of the judge's (`openeval
// review`; the viewer's review form calls the same). The record and its seal are records/reviews.ts's; how the
// latest review decides the score is apply-reviews.ts's.
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { findEvalRun } from "../plan/index.ts";
import {
  checkJudgeRunRecord,
  readReviews,
  recordReview,
  REVIEW_FORMAT,
  REVIEW_SCORES,
  ResultsStore,
  sameSlot,
  type EvalRun,
  type JudgeRun,
  type Review,
  type Reviewer,
  type ReviewScore,
} from "../records/index.ts";
import { describeState } from "../util/words.ts";
import { LatestReviews, type ReviewStanding } from "./apply-reviews.ts";
import { ReviewError } from "./errors.ts";
import { reviewedCase, saveRegressionCase } from "./save-regression-case.ts";
import type { BenchmarkDefinition } from "../load/index.ts";

export interface ReviewOptions {
  /** The run directory (results/<run-id>). */
  run: string;
  /** The eval run: its id, or a prefix of it no other eval run of the run shares (as the viewer shortens ids). */
  evalRun: string;
  criterion: string;
  /** 1 (pass), 0 (fail), 0.5, or null (unresolved); parseReviewScore reads the command line's words. */
  score: ReviewScore;
  /** Why the judge's score is wrong: required. */
  reason: string;
  /** Who reviews; a name or email not given is read from `git config user.name` / `user.email`. */
  by?: { name?: string; email?: string };
  /** Where `git config` is read (default: the current folder). */
  cwd?: string;
  /** When it is recorded (default: now). */
  at?: Date;
  /** Also save the reviewed slot's case as a regression case of this benchmark's eval (`--save-regression`). */
  saveRegressionTo?: BenchmarkDefinition;
}

export interface ReviewResult {
  review: Review;
  /** Every review of the eval run, history included, each with where it stands now: the new one last. */
  reviews: ReviewStanding[];
  /** The regression case saved from it (`saveRegressionTo`): its id and file, relative to the benchmark folder. */
  regressionCase?: { id: string; file: string };
}

/**
 * @example
 * const { review } = await reviewEvalRun({
 *   run: "results/2026-11-29T21-40-00.000Z-1a2b3c4d", evalRun: "eval_1a2b", criterion: "correct",
 *   score: 1, reason: "The answer is right; the judge misread the diff", by: { name: "Ada" },
 * });
 */
export async function reviewEvalRun(options: ReviewOptions): Promise<ReviewResult> {
  const reason = options.reason.trim();
  if (reason === "") throw new ReviewError("reasonMissing");
  if (!(REVIEW_SCORES as readonly unknown[]).includes(options.score))
    throw new ReviewError("scoreInvalid", { got: String(options.score) });
  const store = ResultsStore.open(resolve(options.run));
  try {
    const evalRun = chooseEvalRun(store, options.evalRun);
    const judgeRun = activeJudgment(store, evalRun);
    const judged = judgeRun.scores?.[options.criterion];
    if (judged === undefined) {
      throw new ReviewError("criterionUnknown", {
        evalRunId: evalRun.id,
        judgeRunId: judgeRun.id,
        criterion: options.criterion,
        criteria: Object.keys(judgeRun.scores ?? {}),
      });
    }
    const review: Review = {
      format: REVIEW_FORMAT,
      id: `review_${randomUUID()}`,
      runId: store.readRun().id,
      evalRunId: evalRun.id,
      slot: evalRun.slot,
      criterion: options.criterion,
      score: options.score,
      reason,
      reviewer: reviewerOf(options.by, options.cwd),
      at: (options.at ?? new Date()).toISOString(),
      supersedes: { judgeRunId: judgeRun.id, value: judged.value },
    };
    // Checked before anything is recorded: a review is never left without the case it was asked to save.
    const source = options.saveRegressionTo ? reviewedCase(options.saveRegressionTo, evalRun) : null;
    recordReview(store, review);
    const reviews = readReviews(store).reviews.filter((each) => each.evalRunId === evalRun.id);
    return {
      review,
      reviews: new LatestReviews(reviews).standings([judgeRun]),
      ...(source ? { regressionCase: saveRegressionCase(options.saveRegressionTo!, source, review) } : {}),
    };
  } finally {
    store.close();
  }
}

/** The command line's score: 1, 0, 0.5 or `unresolved` (null). */
export function parseReviewScore(text: string): ReviewScore {
  if (text.trim() === "unresolved") return null;
  const value = text.trim() === "" ? Number.NaN : Number(text);
  const score = REVIEW_SCORES.find((each) => each === value);
  if (score === undefined) throw new ReviewError("scoreInvalid", { got: text });
  return score;
}

function chooseEvalRun(store: ResultsStore, name: string): EvalRun {
  const evalRuns = store.evalRuns();
  const evalRun = findEvalRun(name, evalRuns);
  if (typeof evalRun === "string")
    throw new ReviewError("evalRunUnknown", { name, run: store.directory, problem: evalRun });
  const active = evalRuns.findLast((run) => sameSlot(run.slot, evalRun.slot))!;
  if (active.id !== evalRun.id) throw new ReviewError("evalRunSuperseded", { name, active: active.id });
  return evalRun;
}

/** The eval run's judgment that counts (its latest finished one, as the viewer shows it): completed and intact. */
function activeJudgment(store: ResultsStore, evalRun: EvalRun): JudgeRun {
  const judgeRun =
    store.judgeRuns(evalRun.id).findLast((run) => run.state !== "running" && run.state !== "interrupted") ?? null;
  const notJudged = (why: string) => new ReviewError("notJudged", { evalRunId: evalRun.id, why });
  if (judgeRun === null) throw notJudged(`it has no finished judgment (it ended ${describeState(evalRun.state)})`);
  if (judgeRun.state !== "completed" || judgeRun.scores === null)
    throw notJudged(
      `its latest judgment (judge run ${judgeRun.id}) ${judgeRun.state === "completed" ? "scored nothing" : "failed"}`,
    );
  const problem = checkJudgeRunRecord(store.directory, judgeRun, evalRun);
  if (problem) throw notJudged(`its latest judgment fails its integrity check (${problem.message})`);
  return judgeRun;
}

/** `by` as given, the rest from git's configured identity (null when git has none). */
function reviewerOf(by: ReviewOptions["by"], cwd: string | undefined): Reviewer {
  return { name: by?.name ?? gitConfig("user.name", cwd), email: by?.email ?? gitConfig("user.email", cwd) };
}

function gitConfig(key: string, cwd: string | undefined): string | null {
  try {
    const result = Bun.spawnSync(["git", "config", "--get", key], {
      cwd: cwd ?? process.cwd(),
      // As this process sees it now (GIT_CONFIG_GLOBAL and the like included).
      env: { ...process.env },
      stdout: "pipe",
      stderr: "ignore",
      stdin: "ignore",
    });
    const value = result.exitCode === 0 ? result.stdout.toString().trim() : "";
    return value === "" ? null : value;
  } catch {
    // No git on this machine: the reviewer is who --by names, or unknown.
    return null;
  }
}
