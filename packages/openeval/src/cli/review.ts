// `openeval review <run> <eval-run> --criterion <id> --score <…> --reason "…"`: a person's score in place of the judge's.
import { loadBenchmark } from "../load/index.ts";
import { resolveRun } from "../records/index.ts";
import { parseReviewScore, reviewEvalRun, type ReviewResult } from "../summary/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

export const reviewCommand = defineCommand("review", {
  async run(flags, positionals) {
    if (positionals.length !== 2) throw new UsageError("reviewArguments", { missing: "a run and an eval run" });
    if (flags.criterion === undefined) throw new UsageError("reviewArguments", { missing: "--criterion <id>" });
    if (flags.score === undefined) throw new UsageError("reviewArguments", { missing: "--score <1|0|0.5|unresolved>" });
    const result = await reviewEvalRun({
      run: resolveRun(flags.benchmark, positionals[0]),
      evalRun: positionals[1]!,
      criterion: flags.criterion,
      score: parseReviewScore(flags.score),
      reason: flags.reason ?? "",
      ...(flags.by === undefined ? {} : { by: { name: flags.by } }),
      ...(flags["save-regression"] ? { saveRegressionTo: await loadBenchmark(flags.benchmark) } : {}),
    });
    console.log(flags.json ? JSON.stringify(result) : formatReview(result));
    return EXIT.pass;
  },
});

function formatReview({ review, reviews, regressionCase }: ReviewResult): string {
  const word = (value: number | null) => (value === null ? "unresolved" : String(value));
  const reviewer = [review.reviewer.name, review.reviewer.email && `<${review.reviewer.email}>`]
    .filter(Boolean)
    .join(" ");
  const earlier = reviews.length - 1;
  return [
    `Reviewed ${review.criterion} of eval run ${review.evalRunId}: ${word(review.score)} (the judge scored ${word(review.supersedes.value)} in judge run ${review.supersedes.judgeRunId})`,
    `  by ${reviewer || "an unknown reviewer (set git config user.name or pass --by)"} at ${review.at}: ${review.reason}`,
    `  recorded as reviews/${review.id}.json${earlier > 0 ? `; ${earlier} earlier review${earlier === 1 ? "" : "s"} of this eval run are kept` : ""}`,
    ...(regressionCase
      ? [`  saved as regression case ${regressionCase.id} in ${regressionCase.file}; the next openeval run runs it`]
      : []),
  ].join("\n");
}
