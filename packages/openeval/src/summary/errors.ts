// Errors of recording a review (`openeval review`, the viewer's review form): each says what to pass instead.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  evalRunUnknown: {
    code: "OE_REVIEW_EVAL_RUN_UNKNOWN",
    message: ({ name, run, problem }: { name: string; run: string; problem: string }) =>
      `review ${name}: ${problem} (run ${run})`,
  },
  evalRunSuperseded: {
    code: "OE_REVIEW_EVAL_RUN_SUPERSEDED",
    message: ({ name, active }: { name: string; active: string }) =>
      `review ${name}: a later execution of its slot superseded it, so its scores no longer count; review the active eval run ${active}`,
  },
  notJudged: {
    code: "OE_REVIEW_NOT_JUDGED",
    message: ({ evalRunId, why }: { evalRunId: string; why: string }) =>
      `review ${evalRunId}: ${why}, so there is no judge's score to review; grade it with \`openeval rejudge ${evalRunId}\` first`,
  },
  criterionUnknown: {
    code: "OE_REVIEW_CRITERION_UNKNOWN",
    message: ({
      evalRunId,
      judgeRunId,
      criterion,
      criteria,
    }: {
      evalRunId: string;
      judgeRunId: string;
      criterion: string;
      criteria: string[];
    }) =>
      `review ${evalRunId}: its judgment (judge run ${judgeRunId}) has no criterion "${criterion}"; pass --criterion with one of: ${criteria.join(", ") || "(none: the judgment scored no criterion)"}`,
  },
  scoreInvalid: {
    code: "OE_REVIEW_SCORE_INVALID",
    message: ({ got }: { got: string }) =>
      `--score takes 1 (pass), 0 (fail), 0.5 (half credit) or unresolved; got "${got}"`,
  },
  regressionNeedsCase: {
    code: "OE_REVIEW_REGRESSION_NEEDS_CASE",
    message: ({ evalRunId, evalId }: { evalRunId: string; evalId: string }) =>
      `review ${evalRunId} --save-regression: eval ${evalId} ran it without cases, so there is no case input to save; give the eval a cases.jsonl (docs/guide/cases.md), or review without --save-regression`,
  },
  regressionCaseGone: {
    code: "OE_REVIEW_REGRESSION_CASE_GONE",
    message: ({ evalRunId, evalId, caseId }: { evalRunId: string; evalId: string; caseId: string }) =>
      `review ${evalRunId} --save-regression: eval ${evalId} of the benchmark no longer has the case "${caseId}" it ran; restore the case, or review without --save-regression`,
  },
  reasonMissing: {
    code: "OE_REVIEW_REASON_MISSING",
    message: () =>
      'a review needs its reason: pass --reason "…" saying why the judge\'s score is wrong (it is kept with the review)',
  },
} as const satisfies Record<string, Situation>;

type Situations = typeof SITUATIONS;

export class ReviewError<S extends keyof Situations = keyof Situations> extends SituationError<Situations, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
