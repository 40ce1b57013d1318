// Grades one finalized eval run with its eval's judges (code, rubric, or both) into a JudgeRun. A hybrid
// judgment becomes active only when both sources succeed; neither overwrites the other's criteria.
import { join } from "node:path";
import type { BenchmarkSettings, EvalDefinition } from "../load/index.ts";
import type { CriterionScore, EvalRun, JudgeRun, PanelJudgment } from "../records/index.ts";
import { runCodeJudge } from "./run-code-judge.ts";
import { judgeCaseOf } from "./judge-case.ts";
import { gradeTaskVerifier } from "./grade-task-verifier.ts";
import type { SourceOutcome, VerificationSetup } from "./judge-source.ts";
import type { EngineOptions } from "../sandbox/index.ts";
import type { VerificationEnvironment } from "./schema.ts";
import { describeState } from "../util/words.ts";
import { integrityFindingsOf } from "./integrity/index.ts";
import type { PanelRequest } from "./rubric/grade-panel.ts";

export interface GradeRequest {
  runId: string;
  runDirectory: string;
  judgeRunId: string;
  evalRun: EvalRun;
  evaluation: EvalDefinition;
  settings: BenchmarkSettings;
  judgeFingerprint: string;
  /** The verification image resolved for this run (for judges that use ctx.verification). */
  verification?: VerificationSetup | null;
  /** The eval's environment image the recording was made in (verification `image: "environment"`). */
  environment?: VerificationEnvironment | null;
  /** The pool engine this judge run was placed on: its verification containers run there. */
  engine?: EngineOptions;
  /** Aborted when the runner is interrupted: judging stops and the judge run ends `interrupted`. */
  signal?: AbortSignal;
  /** The code-judge worker frozen when the run started (bundleProgram); default: the harness's own. */
  codeWorker?: string;
  /** Values to redact from what the judge leaves (its logs and returned JSON): every secret the runner can see. */
  secrets?: readonly string[];
  /** Who grades the rubric and which earlier judgments may be reused; null for an eval without judge.md. */
  panel: PanelRequest | null;
  /** Called with the running record, then with the final one. */
  save(judgeRun: JudgeRun): void;
}

/** The rubric source is pluggable so that the LLM judge lives in its own module. */
export type RubricGrader = (
  request: GradeRequest,
  directory: string,
  /** Called with the judgments made so far after each one, so that a judge run cut short keeps them for reuse. */
  onJudgment?: (panel: PanelJudgment[]) => void,
) => Promise<SourceOutcome>;

/** A judge run's folder: one sub-folder per source (files: CODE_JUDGE_FILES, RUBRIC_FILES) and verification's receipts. */
export const JUDGE_RUN_FOLDERS = { code: "code", rubric: "rubric", verification: "verification" } as const;

export function judgeRunDirectory(judgeRunId: string): string {
  return join("judge-runs", judgeRunId);
}

export async function gradeEvalRun(request: GradeRequest, gradeRubric: RubricGrader): Promise<JudgeRun> {
  const { evaluation, evalRun } = request;
  const directory = judgeRunDirectory(request.judgeRunId);
  const startedAt = new Date();
  const running: JudgeRun = {
    id: request.judgeRunId,
    runId: request.runId,
    evalRunId: evalRun.id,
    slot: evalRun.slot,
    kind: judgeKind(evaluation),
    state: "running",
    judgeFingerprint: request.judgeFingerprint,
    startedAt: startedAt.toISOString(),
    completedAt: null,
    elapsedMs: null,
    scores: null,
    unscored: false,
    error: null,
    directory,
  };
  request.save(running);

  const outcomes: SourceOutcome[] = [];
  let output: unknown;
  if (evaluation.code) {
    if (!evalRun.evidence) throw new Error(`eval run ${evalRun.id} has no recording to judge`);
    const code = await runCodeJudge({
      bundle: evaluation.code,
      evalDirectory: evaluation.directory,
      evidence: { directory: join(request.runDirectory, evalRun.evidence.directory), hash: evalRun.evidence.hash },
      run: evalRun,
      case: judgeCaseOf(evaluation, evalRun.slot.case),
      timeoutMs: request.settings.judge.timeoutMs,
      directory: join(request.runDirectory, directory, JUDGE_RUN_FOLDERS.code),
      ...(request.signal ? { signal: request.signal } : {}),
      marker: request.judgeRunId,
      secrets: request.secrets ?? [],
      ...(request.codeWorker ? { worker: request.codeWorker } : {}),
      verification: request.verification
        ? {
            ...request.verification,
            engine: verificationEngine(request),
            judgeRun: request.judgeRunId,
            directory: join(request.runDirectory, directory, JUDGE_RUN_FOLDERS.verification),
            environment: request.environment ?? null,
          }
        : null,
    });
    output = code.output;
    outcomes.push({ state: code.state, scores: code.scores, error: code.error });
  }
  if (evaluation.harbor && !request.signal?.aborted) {
    const verifier = await gradeTaskVerifier({
      evalRun,
      runDirectory: request.runDirectory,
      evalDirectory: evaluation.directory,
      verifier: evaluation.harbor.verifier,
      environment: request.environment ?? null,
      verification: request.verification ?? null,
      engine: verificationEngine(request),
      judgeRun: request.judgeRunId,
      directory: join(request.runDirectory, directory, JUDGE_RUN_FOLDERS.verification),
    });
    output ??= verifier.output;
    outcomes.push(verifier);
  }
  if (evaluation.rubric && !request.signal?.aborted)
    outcomes.push(
      await gradeRubric(request, join(request.runDirectory, directory, JUDGE_RUN_FOLDERS.rubric), (panel) =>
        request.save({ ...running, panel }),
      ),
    );

  const integrityFindings = request.signal?.aborted
    ? undefined
    : await integrityFindingsOf(request.runDirectory, evalRun, evaluation);
  const costUSD = outcomes.reduce((total, outcome) => total + (outcome.costUSD ?? 0), 0);
  // Only the rubric source talks to a model: its session's metrics are the judge run's, failed or not.
  const metrics = outcomes.find((outcome) => outcome.metrics)?.metrics;
  const rubric = outcomes.find((outcome) => outcome.panel);
  const final: JudgeRun = {
    ...running,
    ...combineSources(outcomes, request.signal?.aborted === true),
    ...(output === undefined ? {} : { output }),
    ...(integrityFindings ? { integrityFindings } : {}),
    ...(rubric?.panel ? { panel: rubric.panel } : {}),
    ...(rubric?.combine ? { combine: rubric.combine } : {}),
    costUSD,
    ...(metrics ? { metrics } : {}),
    completedAt: new Date().toISOString(),
    elapsedMs: Date.now() - startedAt.getTime(),
  };
  request.save(final);
  return final;
}

/** One source is its kind; more than one is hybrid. */
function judgeKind(evaluation: EvalDefinition): JudgeRun["kind"] {
  const kinds = [
    ...(evaluation.code ? (["code"] as const) : []),
    ...(evaluation.harbor ? (["verifier"] as const) : []),
    ...(evaluation.rubric ? (["rubric"] as const) : []),
  ];
  return kinds.length === 1 ? kinds[0]! : "hybrid";
}

/**
 * The judgment of all sources: active only when every source succeeded; an id scored twice is an error. When one
 * fails, what the others scored is kept beside the error as evidence, never as the judgment.
 */
export function combineSources(
  outcomes: readonly SourceOutcome[],
  interrupted = false,
): Pick<JudgeRun, "scores" | "unscored" | "error" | "keptScores" | "infrastructureError"> & {
  state: SourceOutcome["state"];
} {
  // A judgment the runner's interruption cut short is retryable work, never a judge's failure.
  if (interrupted && (outcomes.length === 0 || outcomes.some((outcome) => outcome.state !== "completed"))) {
    return {
      state: "interrupted",
      scores: null,
      unscored: false,
      error: "The runner was interrupted before this judgment finished; the next run judges the recording again",
    };
  }
  const failed = outcomes.find((outcome) => outcome.state !== "completed");
  if (failed) {
    const kept = Object.assign(
      {},
      ...outcomes.filter((outcome) => outcome.state === "completed").map((outcome) => outcome.scores ?? {}),
    ) as Record<string, CriterionScore>;
    const error = failed.error ?? `a judge source ended ${describeState(failed.state)}`;
    return {
      state: failed.state,
      scores: null,
      unscored: false,
      error,
      ...(Object.keys(kept).length > 0 ? { keptScores: kept } : {}),
      ...(failed.infrastructureError ? { infrastructureError: true } : {}),
    };
  }
  const scores: Record<string, CriterionScore> = {};
  for (const outcome of outcomes) {
    for (const [id, score] of Object.entries(outcome.scores ?? {})) {
      if (id in scores) {
        return {
          state: "failed",
          scores: null,
          unscored: false,
          error: `criterion "${id}" was scored by both judge.md and judge.ts; give one of them another id`,
        };
      }
      scores[id] = score;
    }
  }
  const unscored = outcomes.every((outcome) => outcome.scores === null);
  return { state: "completed", scores: unscored ? null : scores, unscored, error: null };
}

/**
 * Where this judge run's verification containers run: the pool engine it was placed on (keeping the configured docker
 * or podman), else the run's verification engine. Never a mix of the two engines' addresses and certificates.
 */
function verificationEngine(request: GradeRequest): EngineOptions {
  const configured = request.verification?.engine ?? {};
  if (!request.engine) return configured;
  return { ...(configured.engine ? { engine: configured.engine } : {}), ...request.engine };
}
