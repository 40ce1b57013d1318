// Placeholder rubric source until the LLM rubric judge lands: judge.md criteria fail loudly as a judging error
// (never a silent 0, never a pass), so hybrid evals stay inactive instead of half-graded.
import type { RubricGrader } from "./grade-eval-run.ts";

export const gradeRubricUnavailable: RubricGrader = async () => ({
  state: "failed",
  scores: null,
  error: "judge.md needs the LLM rubric judge, which this version of openeval does not include yet; the judgment stays inactive",
});
