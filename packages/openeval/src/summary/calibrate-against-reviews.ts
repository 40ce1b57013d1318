// calibrateAgainstReviews(): `openeval calibrate --against-reviews` — the reviewed slots of a run are a label set, and
// each judge is measured against it per criterion: Cohen's κ with the people, its true-positive and true-negative
// rates, and the counts. A score ≥ 0.5 is a pass on both sides. An unresolved label (a review saying `unresolved`, or a
// judge that left the criterion unresolved) says neither pass nor fail: that pair is left out and counted.
import { resolve } from "node:path";
import { agreementSettingsOf, judgePanelOf, loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { readReviews, ResultsStore, type CriterionScore, type JudgeRun, type Review } from "../records/index.ts";
import { cohensKappa, type BinaryAgreement, type LabelPair } from "../results/index.ts";
import { LatestReviews } from "./apply-reviews.ts";

/** A score at or above this is a pass (a half-credit review or judgment included). */
export const PASS_AT = 0.5;

export interface JudgeCalibration extends BinaryAgreement {
  evalId: string;
  criterion: string;
  /**
   * Who scored: a rubric's judge model (a panel's, each of its judgments; `panel (<rule>)` for their combination), or
   * the code that did (`judge.ts`, `tests/test.sh`).
   */
  judge: string;
  /** Reviewed pairs left out because the review or the judge was unresolved. */
  unresolved: number;
  /** κ is below the threshold over enough units: this judge should not decide this criterion alone. */
  flagged: boolean;
}

export interface ReviewCalibration {
  runDirectory: string;
  /** `judge.minAgreement` (default 0.67): κ below it flags a judge. */
  threshold: number;
  /** The fewest labelled units a κ needs before it can flag (`judge.minAgreementUnits`, default 2). */
  minUnits: number;
  /** The latest review of each reviewed eval run and criterion (its human label), and how many were unresolved. */
  labels: number;
  unresolvedLabels: number;
  judges: JudgeCalibration[];
  /** Reviews that fail their check: not labels. */
  problems: string[];
}

export interface CalibrateAgainstReviewsOptions {
  /** The run directory. */
  run: string;
  /** The benchmark whose judge settings name the judge model (default: the folder the run records). */
  benchmark?: string | BenchmarkDefinition;
}

/**
 * @example
 * const { judges } = await calibrateAgainstReviews({ run: "results/2026-11-29T21-40-00.000Z-1a2b3c4d" });
 * for (const judge of judges) console.log(judge.criterion, judge.judge, judge.kappa, judge.flagged);
 */
export async function calibrateAgainstReviews(options: CalibrateAgainstReviewsOptions): Promise<ReviewCalibration> {
  const store = ResultsStore.open(resolve(options.run), { readonly: true });
  try {
    const source = options.benchmark ?? store.readRun().benchmarkDirectory;
    const benchmark = typeof source === "string" ? await loadBenchmark(source) : source;
    const agreement = agreementSettingsOf(benchmark.settings);
    const judgeModel = judgePanelOf(benchmark.settings).models[0] ?? "judge.md";
    const { reviews, problems } = readReviews(store);
    const latest = latestLabels(reviews);
    const pairs = new Map<string, { evalId: string; criterion: string; judge: string; pairs: (LabelPair | null)[] }>();
    for (const review of latest) {
      const judgeRun = activeJudgment(store.judgeRuns(review.evalRunId));
      if (!judgeRun) continue;
      for (const { judge, score } of judgeScores(judgeRun, review.criterion, judgeModel)) {
        const key = JSON.stringify([review.slot.evalId, review.criterion, judge]);
        const entry = pairs.get(key) ?? { evalId: review.slot.evalId, criterion: review.criterion, judge, pairs: [] };
        entry.pairs.push(
          review.score === null || score === null ? null : { judge: score >= PASS_AT, human: review.score >= PASS_AT },
        );
        pairs.set(key, entry);
      }
    }
    const judges = [...pairs.values()]
      .map((entry) => {
        const labelled = entry.pairs.filter((pair) => pair !== null);
        const measured = cohensKappa(labelled);
        return {
          evalId: entry.evalId,
          criterion: entry.criterion,
          judge: entry.judge,
          ...measured,
          unresolved: entry.pairs.length - labelled.length,
          flagged:
            measured.kappa !== null && measured.kappa < agreement.minAgreement && measured.units >= agreement.minUnits,
        };
      })
      .sort(
        (a, b) =>
          a.evalId.localeCompare(b.evalId) || a.criterion.localeCompare(b.criterion) || a.judge.localeCompare(b.judge),
      );
    return {
      runDirectory: store.directory,
      threshold: agreement.minAgreement,
      minUnits: agreement.minUnits,
      labels: latest.length,
      unresolvedLabels: latest.filter((review) => review.score === null).length,
      judges,
      problems: problems.map((problem) => problem.message),
    };
  } finally {
    store.close();
  }
}

/** The latest review of each eval run and criterion: one label per reviewed slot's criterion. */
function latestLabels(reviews: readonly Review[]): Review[] {
  const latest = new LatestReviews(reviews);
  return reviews.filter((review) => latest.latest(review.evalRunId, review.criterion) === review);
}

/** The judgment a review was made against: the eval run's latest finished one, when it completed. */
function activeJudgment(judgeRuns: readonly JudgeRun[]): JudgeRun | null {
  const judgeRun = judgeRuns.findLast((run) => run.state !== "running" && run.state !== "interrupted") ?? null;
  return judgeRun?.state === "completed" ? judgeRun : null;
}

/** Each judge's own score of the criterion in this judgment: every panel judgment and their combination, else the one judge. */
function judgeScores(
  judgeRun: JudgeRun,
  criterion: string,
  judgeModel: string,
): { judge: string; score: number | null }[] {
  const combined = judgeRun.scores?.[criterion];
  if (combined === undefined) return [];
  const panel = combined.source === "judge.md" ? (judgeRun.panel ?? []) : [];
  if (panel.length === 0) return [{ judge: judgeOf(combined, judgeModel), score: combined.value }];
  return [
    ...panel.flatMap((judgment) => {
      const score = judgment.scores?.[criterion];
      return score === undefined ? [] : [{ judge: judgment.model, score: score.value }];
    }),
    { judge: `panel (${judgeRun.combine ?? "mean"})`, score: combined.value },
  ];
}

function judgeOf(score: CriterionScore, judgeModel: string): string {
  return score.source === "judge.md" ? judgeModel : score.source;
}
