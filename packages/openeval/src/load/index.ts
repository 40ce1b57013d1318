// The load stage: benchmark.ts, eval folders, judge.md criteria, judge.ts bundles, controls → BenchmarkDefinition.
export { checkModelOverride, EVAL_ID, loadBenchmark, type BenchmarkDefinition } from "./load-benchmark.ts";
export {
  caseInputs,
  evalForCase,
  REFERENCE_FIX_FILE,
  workspaceFolders,
  type Criterion,
  type EvalDefinition,
  type JudgeFile,
} from "./load-eval.ts";
export { caseOf, CASE_OVERLAYS_FOLDER, type EvalCase } from "./eval-cases.ts";
export { caseFilesOf, REGRESSION_TAG } from "./case-files.ts";
export { REGRESSION_CASE_FILE } from "./schema.ts";
export { HARBOR_REWARD, type HarborTask } from "./harbor-task.ts";
export type { EvalWorkspace, GitWorkspace } from "./workspace.ts";
export {
  DEFAULT_ENVIRONMENT_BUILD_TIMEOUT_MS,
  loadEnvironment,
  type EnvironmentLimits,
  type EvalEnvironment,
} from "./environment.ts";
export {
  bundleCodeJudge,
  mentionsVerification,
  type CodeCriteria,
  type CodeJudgeBundle,
  type JudgeDependency,
} from "./code-judge-bundle.ts";
export { resolveJudgeImport } from "./resolve-judge-import.ts";
export {
  parseRubric,
  rubricCriteria,
  type Rubric,
  type RubricCriterion,
} from "./rubric.ts";
export { BenchmarkInvalidError, EnginesSettingError, type LoadProblem } from "./errors.ts";
export { categoryKey, categoryKeys, inCategories } from "./categories.ts";
export { DEFAULT_EARLY_STOP, earlyStopPolicy, type EarlyStopPolicy } from "./early-stop.ts";
export {
  agreementSettingsOf,
  DEFAULT_MIN_AGREEMENT,
  judgePanelOf,
  PANEL_COMBINE_RULES,
  type AgreementSettings,
  type JudgePanel,
  type PanelCombineRule,
} from "./judge-panel.ts";
export { CURRENT_VARIANT, CURRENT_VARIANT_NAME, type VariantDefinition } from "./variants.ts";
export {
  isIsolation,
  ISOLATION_BACKENDS,
  resolveEvalIsolation,
  resolveIsolation,
  type Isolation,
} from "./isolation.ts";
export {
  ADAPTIVE_COMPARISONS,
  BenchmarkSchema,
  GatesSchema,
  CRITERION_ID,
  DEFAULT_JUDGE_TIMEOUT_MS,
  MODEL_ID,
  PREPARE_STEP_TIMEOUT_MS,
  RESERVED_VARIANTS,
  JudgeSettingsSchema,
  VerificationSettingsSchema,
  type AdaptiveRepetitions,
  type Benchmark,
  type BenchmarkSettings,
  type EvalConfig,
  type EvalSettings,
  type GateSettings,
  type PrepareStep,
} from "./schema.ts";
export {
  configuredEngines,
  DEFAULT_ENGINE_NAME,
  ENGINES_VARIABLE,
  type EngineMemberSettings,
} from "./engine-pool.ts";
export {
  IntegritySettingsSchema,
  INTEGRITY_FINDING_KINDS,
  severityOf,
  type EvalIntegrity,
  type IntegrityFindingKind,
  type IntegritySettings,
  type IntegritySeverity,
} from "./integrity.ts";
export {
  DEFAULT_INVARIANT_TIMEOUT_MS,
  INVARIANT_ID,
  INVARIANT_INPUTS,
  invariantDefinition,
  InvariantsSchema,
  type Invariant,
  type InvariantOver,
} from "./invariants.ts";
