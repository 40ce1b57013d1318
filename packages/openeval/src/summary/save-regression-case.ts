// A reviewed slot saved as a regression case of its eval (`openeval review --save-regression`): the case it ran, its
// input and expected value as the benchmark declares them now, appended to the eval's regression.cases.jsonl under a
// new id and tagged `reviewed`. Nothing else changes: the next `openeval run` plans it as it plans any added case.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REGRESSION_CASE_FILE, REGRESSION_TAG, type BenchmarkDefinition, type EvalCase } from "../load/index.ts";
import type { EvalRun, Review } from "../records/index.ts";
import { ReviewError } from "./errors.ts";

/** The tag a case saved from a review carries, beside the tags of the case it was saved from. */
export const REVIEWED_TAG = "reviewed";

/** The case a regression case would be saved from; throws ReviewError when there is none (checked before reviewing). */
export function reviewedCase(benchmark: BenchmarkDefinition, evalRun: Pick<EvalRun, "id" | "slot">): EvalCase {
  const { evalId, case: caseId } = evalRun.slot;
  const evaluation = benchmark.evals.find((candidate) => candidate.id === evalId);
  if (caseId === undefined) throw new ReviewError("regressionNeedsCase", { evalRunId: evalRun.id, evalId });
  const found = evaluation?.cases?.find((candidate) => candidate.id === caseId);
  if (!found) throw new ReviewError("regressionCaseGone", { evalRunId: evalRun.id, evalId, caseId });
  return found;
}

/** Appends the case to regression.cases.jsonl (a new line, the file's other lines untouched); returns its id and file. */
export function saveRegressionCase(
  benchmark: BenchmarkDefinition,
  source: EvalCase,
  review: Pick<Review, "id" | "slot">,
): { id: string; file: string } {
  const evaluation = benchmark.evals.find((candidate) => candidate.id === review.slot.evalId)!;
  const id = `${source.id}-reviewed-${review.id.replace(/^review_/, "").slice(0, 8)}`;
  const line = {
    id,
    input: source.input,
    ...(source.expected === undefined ? {} : { expected: source.expected }),
    // The regression file tags its cases itself.
    tags: [...source.tags.filter((tag) => tag !== REGRESSION_TAG), REVIEWED_TAG],
  };
  const file = join(evaluation.directory, REGRESSION_CASE_FILE);
  const before = existsSync(file) ? readFileSync(file, "utf8") : "";
  // A file whose last line has no newline gets one first, so the case is a line of its own.
  appendFileSync(file, `${before === "" || before.endsWith("\n") ? "" : "\n"}${JSON.stringify(line)}\n`);
  return { id, file: join("evals", evaluation.id, REGRESSION_CASE_FILE) };
}
