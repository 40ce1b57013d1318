// Candidate and judge fingerprints (SPEC §5): what, if changed, makes recorded work stale. Reuse is exact-match.
import type { BenchmarkSettings, EvalDefinition } from "../load/index.ts";
import { fingerprint } from "../util/hash.ts";
import { CANDIDATE_RUNTIME_VERSION, JUDGE_PROTOCOL_VERSION, OPENCODE_VERSION, SCORERS_VERSION } from "../util/versions.ts";
import { controlName, isControlModel } from "../util/control-model.ts";

export function candidateFingerprint(evaluation: EvalDefinition, model: string, settings: BenchmarkSettings): string {
  const provider = model.split("/")[0] ?? model;
  return fingerprint({
    prompt: evaluation.prompt.text,
    workspace: evaluation.workspace.hash,
    model,
    // A control's script is its "model": editing it must re-run the control.
    control: isControlModel(model) ? (evaluation.controls[controlName(model)]?.turns ?? null) : null,
    candidate: {
      timeoutMs: evaluation.settings.timeoutMs ?? settings.candidate.timeoutMs,
      maxCostUSD: settings.candidate.maxCostUSD ?? null,
      provider: settings.candidate.providers[provider] ?? null,
    },
    opencode: OPENCODE_VERSION,
    runtime: CANDIDATE_RUNTIME_VERSION,
  });
}

/** `verificationImage`: the pinned image id when this eval's judge uses ctx.verification (SPEC §5). */
export function judgeFingerprint(evaluation: EvalDefinition, settings: BenchmarkSettings, verificationImage: string | null = null): string {
  return fingerprint({
    rubric: evaluation.rubric?.text ?? null,
    code: evaluation.code ? { identity: evaluation.code.identity, criteria: evaluation.code.criteria } : null,
    judge: {
      model: evaluation.rubric ? (settings.judge.model ?? null) : null,
      timeoutMs: settings.judge.timeoutMs,
      verification: evaluation.code ? (settings.judge.verification ?? null) : null,
    },
    judgeFiles: evaluation.judgeFiles,
    verificationImage,
    protocol: JUDGE_PROTOCOL_VERSION,
    // `openeval/scorers` is the harness's own code, outside the bundle: its definition version stands in for it.
    ...(usesScorers(evaluation) ? { scorers: SCORERS_VERSION } : {}),
  });
}

function usesScorers(evaluation: EvalDefinition): boolean {
  return evaluation.code?.dependencies.some((dependency) => dependency.name === "openeval") ?? false;
}
