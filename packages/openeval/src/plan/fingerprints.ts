// Candidate and judge fingerprints: what, if changed, makes recorded work stale. Reuse is exact-match.
import {
  CURRENT_VARIANT,
  judgePanelOf,
  REFERENCE_FIX_FILE,
  type BenchmarkSettings,
  type EvalCase,
  type EvalDefinition,
  type Isolation,
  type VariantDefinition,
} from "../load/index.ts";
import { fingerprint } from "../util/hash.ts";
import {
  CANDIDATE_RUNTIME_VERSION,
  INTEGRITY_CHECK_VERSION,
  REFERENCE_FACTS_VERSION,
  JUDGE_PROTOCOL_VERSION,
  OPENCODE_VERSION,
  SCORERS_VERSION,
} from "../util/versions.ts";
import { controlName, isControlModel } from "../util/control-model.ts";

/** Where a model's candidates run: the backend, and for containers the pinned candidate image id. */
export interface CandidateRuntime {
  isolation: Isolation;
  /** The candidate image id (`sha256:…`) when isolation is `container`; null when it could not be resolved. */
  image: string | null;
}

export const PROCESS_RUNTIME: CandidateRuntime = { isolation: "process", image: null };

export function candidateFingerprint(
  evaluation: EvalDefinition,
  model: string,
  settings: BenchmarkSettings,
  runtime: CandidateRuntime = PROCESS_RUNTIME,
  variant: VariantDefinition = CURRENT_VARIANT,
  evalCase: EvalCase | null = null,
): string {
  const provider = model.split("/")[0] ?? model;
  return fingerprint({
    // A case's slots are sent prompt.md rendered over the case.
    prompt: evalCase?.prompt ?? evaluation.prompt.text,
    workspace: evaluation.workspace.hash,
    model,
    // A control's script is its "model": editing it must re-run the control.
    control: isControlModel(model) ? (evaluation.controls[controlName(model)]?.turns ?? null) : null,
    candidate: {
      timeoutMs: evaluation.settings.timeoutMs ?? settings.candidate.timeoutMs,
      maxCostUSD: settings.candidate.maxCostUSD ?? null,
      provider: settings.candidate.providers[provider] ?? null,
      // A limit cuts the session short, so it changes what is recorded; only a set one adds its key, so recordings
      // made without these limits stay reusable.
      ...(settings.candidate.maxTokens === undefined ? {} : { maxTokens: settings.candidate.maxTokens }),
      ...(settings.candidate.maxSteps === undefined ? {} : { maxSteps: settings.candidate.maxSteps }),
    },
    opencode: OPENCODE_VERSION,
    runtime: CANDIDATE_RUNTIME_VERSION,
    // Preparation shapes the starting state; only an eval with steps adds the key, so others stay reusable.
    ...(evaluation.settings.prepare.length > 0 ? { prepare: evaluation.settings.prepare } : {}),
    // Only containers add keys, so recordings made on this machine (all of them, before containers) stay reusable.
    ...(runtime.isolation === "container"
      ? { container: { image: runtime.image, limits: settings.candidate.container ?? null } }
      : {}),
    // The variant's whole definition, file contents included; current adds nothing, so older recordings stay its own.
    ...(variant.name === CURRENT_VARIANT.name ? {} : { variant }),
    // Only a case's own values: editing one case leaves every other case's slots reusable.
    ...(evalCase ? { case: { id: evalCase.id, input: evalCase.input, overlay: evalCase.overlay?.hash ?? null } } : {}),
  });
}

/** What judges see of a case (its expected value and tags; its input is in the candidate fingerprint already). */
function caseJudgeInput(evalCase: EvalCase | null) {
  return evalCase ? { case: { id: evalCase.id, expected: evalCase.expected ?? null, tags: evalCase.tags } } : {};
}

/** `verificationImage`: the pinned image id when this eval's judge uses ctx.verification. */
export function judgeFingerprint(
  evaluation: EvalDefinition,
  settings: BenchmarkSettings,
  verificationImage: string | null = null,
  evalCase: EvalCase | null = null,
): string {
  const panel = judgePanelOf(settings);
  return fingerprint({
    rubric: evaluation.rubric?.text ?? null,
    // Categories are reporting metadata (OpenEval 0.5): changing them never rejudges.
    code: evaluation.code
      ? {
          identity: evaluation.code.identity,
          criteria: evaluation.code.criteria?.map(({ id, label }) => ({ id, label })) ?? null,
        }
      : null,
    judge: {
      model: evaluation.rubric && panel.models.length === 1 ? panel.models[0]! : null,
      timeoutMs: settings.judge.timeoutMs,
      verification: evaluation.code ? (settings.judge.verification ?? null) : null,
    },
    // Only a panel adds the key, so judgments by one judge model stay reusable.
    ...(evaluation.rubric && panel.models.length > 1 ? { panel } : {}),
    judgeFiles: evaluation.judgeFiles,
    ...referenceFactsInput(evaluation),
    // Grading runs the integrity check too: what it protects, and the check's own version.
    integrity: {
      protected: evaluation.integrity.protected,
      checkers: evaluation.integrity.checkers,
      check: INTEGRITY_CHECK_VERSION,
    },
    verificationImage,
    protocol: JUDGE_PROTOCOL_VERSION,
    // `openeval/scorers` is the harness's own code, outside the bundle: its definition version stands in for it.
    ...(usesScorers(evaluation) ? { scorers: SCORERS_VERSION } : {}),
    ...caseJudgeInput(evalCase),
  });
}

/**
 * What one judge model's grading of the rubric depends on: a panel's judgment with an unchanged fingerprint is
 * reused when the panel changes, so adding a judge grades only with the new one.
 */
export function judgmentFingerprint(
  evaluation: EvalDefinition,
  settings: BenchmarkSettings,
  model: string,
  evalCase: EvalCase | null = null,
): string {
  return fingerprint({
    rubric: evaluation.rubric?.text ?? null,
    model,
    timeoutMs: settings.judge.timeoutMs,
    judgeFiles: evaluation.judgeFiles,
    ...referenceFactsInput(evaluation),
    protocol: JUDGE_PROTOCOL_VERSION,
    ...caseJudgeInput(evalCase),
  });
}

/** Rubric judges read the reference-fix scorer's result as facts, and capped criteria are capped at it. */
function referenceFactsInput(evaluation: EvalDefinition) {
  if (!evaluation.rubric || !evaluation.judgeFiles.some((file) => file.path === REFERENCE_FIX_FILE)) return {};
  return {
    referenceFacts: {
      version: REFERENCE_FACTS_VERSION,
      ceilings: evaluation.rubric.criteria.flatMap((criterion) =>
        criterion.ceiling ? [[criterion.id, criterion.ceiling]] : [],
      ),
    },
  };
}

function usesScorers(evaluation: EvalDefinition): boolean {
  return evaluation.code?.dependencies.some((dependency) => dependency.name === "openeval") ?? false;
}
