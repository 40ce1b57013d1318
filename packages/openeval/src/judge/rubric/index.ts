// The LLM rubric judge (judge.md): an OpenCode agent with read-only evidence tools and a validated submission tool,
// plus the scripted `control/judge`. The judge stage re-exports what other stages need from here.
export { checkEarly, type EarlyCheckLimits, type EarlyCheckResult } from "./check-early.ts";
export {
  createRubricGrader,
  gradeRubricTask,
  RUBRIC_FILES,
  type JudgeCredentials,
  type RubricGraderOptions,
  type RubricTask,
} from "./grade-rubric.ts";
export { gradePanel, planJudgments, type PanelRequest } from "./grade-panel.ts";
export { combinePanelScores, combineValues, judgeLabel } from "./panel-scores.ts";
export { judgeControls, judgeControlName, SCRIPTED_JUDGE_MODEL } from "./control-judge.ts";
export { SubmissionFileSchema, type Submission } from "./schema.ts";
export { readCallLog, type CallLogEntry } from "./call-log.ts";
export { readJudgeSession } from "./read-session.ts";
