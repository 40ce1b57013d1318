// The LLM rubric judge as a RubricGrader: one isolated OpenCode session of the judge model, with only
// the judge tools, grading one eval run; everything it did is archived in the judge run's `rubric/` folder.
import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  archiveDatabase,
  buildProviderConfig,
  createGitWorkspace,
  runOpenCode,
  type OpenCodeOutcome,
} from "../../opencode/index.ts";
import { measureSession, type EvidenceRef, type JudgeCase } from "../../recording/index.ts";
import { caseFactsText, judgeCaseOf } from "../judge-case.ts";
import { writeJsonAtomic } from "../../util/files.ts";
import { createScratchDir, removeScratchDir } from "../../util/scratch-dir.ts";
import { harnessProgram } from "../bundle-program.ts";
import type { RubricGrader } from "../grade-eval-run.ts";
import type { SourceOutcome } from "../judge-source.ts";
import { REFERENCE_FIX_FILE, type BenchmarkSettings, type EvalDefinition } from "../../load/index.ts";
import { gradePanel } from "./grade-panel.ts";
import type { EvalRun, RunMetrics } from "../../records/index.ts";
import { isPriced } from "../../util/model-pricing.ts";
import { resolveJudgeModel } from "./control-judge.ts";
import { buildJudgeConfig, judgeUserPrompt } from "./judge-agent.ts";
import { type JudgeRunFiles, readJudgment } from "./read-judgment.ts";
import type { JudgeJob, JudgePhase } from "./schema.ts";
import { applyCeilings, cappedCriteria, referenceFactsText, scoreReferenceFix } from "./reference-facts.ts";
import type { ReferenceFixScore } from "../scorers/index.ts";

/** What the judge session may see: only the judge model's own provider credentials. */
export interface JudgeCredentials {
  env: Record<string, string>;
  auth: Record<string, unknown> | null;
  /** Every secret handed over, redacted from everything archived. */
  secrets: string[];
}

export interface RubricGraderOptions {
  /** Base URL of the control server for an eval, or null when none runs (needed for `control/*` judge models). */
  controlBaseURL(evalId: string): string | null;
  /** The credentials of the judge model's provider (never the candidate's). */
  selectCredentials(model: string): Promise<JudgeCredentials>;
  /** Runs the tool server; default the harness's own Bun (`process.execPath`). */
  bunBinary?: string;
  /** The tool server to run: a run's frozen bundle (see bundleProgram); default the harness's own. */
  toolServer?: string;
  /** Override the pinned OpenCode binary. */
  opencodeBinary?: string;
}

/** Files of a rubric judge run, inside its `rubric/` folder. */
export const RUBRIC_FILES = {
  job: "job.json",
  agent: "judge-agent.json",
  submission: "submission.json",
  continuation: "continue.json",
  log: "tools-log.jsonl",
  events: "opencode-events.jsonl",
  stderr: "opencode-stderr.log",
  database: "opencode.db",
  session: "session.json",
} as const;

interface JudgePlan {
  model: string;
  evidence: EvidenceRef;
  criteria: string[];
  provider: Record<string, unknown>;
}

/** One rubric grading: a recording (of an eval run, or constructed), its rubric, and the judge settings. */
export interface RubricTask {
  judgeRunId: string;
  /** Absolute evidence location. */
  evidence: EvidenceRef;
  run: EvalRun | null;
  /** The judge model this session runs (one of `judge.model` / `judge.models`). */
  judgeModel: string;
  /** The candidate's model (for `control/judge`, which plays that control's verdict); null for constructed evidence. */
  candidateModel: string | null;
  evaluation: Pick<EvalDefinition, "id" | "rubric" | "controls">;
  settings: BenchmarkSettings;
  /** The reference-fix scorer's result, told to the judge as facts, and the criteria it caps (none without REFERENCE_FIX.md). */
  reference?: { score: ReferenceFixScore; capped: string[] } | null;
  /** The case the eval run was for, told to the judge as facts; null (or absent) for an eval without cases. */
  case?: JudgeCase | null;
}

/**
 * @example
 * const gradeRubric = createRubricGrader({ controlBaseURL: (id) => server.baseURL(id), selectCredentials });
 * const judgeRun = await gradeEvalRun(request, gradeRubric);
 */
export function createRubricGrader(options: RubricGraderOptions): RubricGrader {
  return async (request, directory, onJudgment) => {
    const { evalRun } = request;
    if (!evalRun.evidence)
      return { state: "failed", scores: null, error: `eval run ${evalRun.id} has no recording to judge` };
    const evidence = {
      directory: resolve(request.runDirectory, evalRun.evidence.directory),
      hash: evalRun.evidence.hash,
    };
    let score: ReferenceFixScore | null;
    try {
      score = await scoreReferenceFix(request.evaluation, evidence, evalRun);
    } catch (error) {
      return {
        state: "failed",
        scores: null,
        error: `the reference fix (${REFERENCE_FIX_FILE}) could not be scored for the judge: ${(error as Error).message}`,
      };
    }
    const task: Omit<RubricTask, "judgeModel"> = {
      judgeRunId: request.judgeRunId,
      evidence,
      run: evalRun,
      candidateModel: evalRun.slot.model,
      evaluation: request.evaluation,
      settings: request.settings,
      reference: score ? { score, capped: cappedCriteria(request.evaluation) } : null,
      case: judgeCaseOf(request.evaluation, evalRun.slot.case),
    };
    if (!request.panel) return { state: "failed", scores: null, error: "no judge panel was given for judge.md" };
    return gradePanel(request.panel, {
      judgeRunId: request.judgeRunId,
      runDirectory: request.runDirectory,
      directory,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(onJudgment ? { onJudgment } : {}),
      // The judge run's id marks its processes, so that crash recovery can find and reap them.
      grade: (judgeModel, folder) =>
        gradeRubricTask({ ...task, judgeModel }, folder, options, {
          ...(request.signal ? { signal: request.signal } : {}),
          marker: request.judgeRunId,
        }),
    });
  };
}

/** Grades one task; every failure is a recorded outcome, never a thrown error or a candidate's 0. */
export async function gradeRubricTask(
  task: RubricTask,
  directory: string,
  options: RubricGraderOptions,
  limits: Pick<JudgeSessionLimits, "signal" | "marker"> = {},
): Promise<SourceOutcome> {
  const session = await runJudgeSession(task, directory, options, { phase: "final", ...limits });
  if ("error" in session) return { state: "failed", scores: null, error: session.error };
  const judgment = readJudgment(session.files, session.outcome, session.criteria);
  const { reference } = task;
  return {
    ...judgment,
    ...(reference && judgment.scores && reference.capped.length > 0
      ? { scores: applyCeilings(judgment.scores, reference.capped, reference.score.value) }
      : {}),
    costUSD: session.outcome.costUSD,
    ...(session.metrics ? { metrics: session.metrics } : {}),
  };
}

/** The session's phase and limits (an early check adds its budget, cancellation and process marker). */
export interface JudgeSessionLimits {
  phase: JudgePhase;
  maxCostUSD?: number;
  signal?: AbortSignal;
  /** The judge processes' RUN_MARKER value, so that crash recovery can find and reap them. */
  marker?: string;
}

export interface JudgeSession {
  outcome: OpenCodeOutcome;
  files: JudgeRunFiles & { continuation: string };
  criteria: string[];
  /** Measured from the archived database as a candidate's are; null when there is none, or it cannot be read. */
  metrics: RunMetrics | null;
}

/** One judge session over the task's recording; a refusal before any process starts is `{ error }`. */
export async function runJudgeSession(
  task: RubricTask,
  directory: string,
  options: RubricGraderOptions,
  limits: JudgeSessionLimits,
): Promise<JudgeSession | { error: string }> {
  const plan = planJudgeRun(task, options, limits.phase);
  if ("error" in plan) return plan;
  const scratch = await createScratchDir(`judge-${task.judgeRunId}`);
  try {
    // Absolute: the tool server runs in the judge's own working directory.
    return await runJudge(task, resolve(directory), plan, scratch, options, limits);
  } catch (error) {
    return { error: `the rubric judge could not run: ${(error as Error).message}` };
  } finally {
    await removeScratchDir(scratch);
  }
}

/** Step: everything that can be refused before any process starts. */
function planJudgeRun(
  task: RubricTask,
  options: RubricGraderOptions,
  phase: JudgePhase,
): JudgePlan | { error: string } {
  const { evaluation, settings } = task;
  if (!evaluation.rubric) return { error: `eval ${evaluation.id} has no judge.md to grade with` };
  const resolved = resolveJudgeModel(task.judgeModel, task.candidateModel, evaluation.controls, phase);
  if ("error" in resolved) return resolved;
  try {
    return {
      model: resolved.model,
      evidence: task.evidence,
      criteria: evaluation.rubric.criteria.map((criterion) => criterion.id),
      provider: buildProviderConfig(
        resolved.model,
        settings.candidate.providers,
        options.controlBaseURL(evaluation.id),
      ),
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function runJudge(
  task: RubricTask,
  directory: string,
  plan: JudgePlan,
  scratch: string,
  options: RubricGraderOptions,
  limits: JudgeSessionLimits,
): Promise<JudgeSession> {
  const rubric = task.evaluation.rubric!;
  const at = (name: keyof typeof RUBRIC_FILES) => join(directory, RUBRIC_FILES[name]);
  await mkdir(directory, { recursive: true });
  // A retried judge run starts clean: a stale submission would be refused as a resubmission, then read as this one's.
  await Promise.all(
    Object.keys(RUBRIC_FILES).map((name) => rm(at(name as keyof typeof RUBRIC_FILES), { force: true })),
  );

  // Step: the job the tool server reads, and the agent definition (archived without provider settings).
  const job: JudgeJob = {
    evidence: plan.evidence,
    run: task.run,
    criteria: plan.criteria,
    phase: limits.phase,
    submissionFile: at("submission"),
    continueFile: at("continuation"),
    logFile: at("log"),
  };
  await writeJsonAtomic(at("job"), job);
  const config = buildJudgeConfig({
    rubric,
    provider: plan.provider,
    jobFile: at("job"),
    bunBinary: options.bunBinary ?? process.execPath,
    toolServer: options.toolServer ?? (await harnessProgram("judge-tools")),
    phase: limits.phase,
  });
  const { provider: _provider, ...agent } = config;
  await writeJsonAtomic(at("agent"), { model: plan.model, ...agent });

  // Step: one isolated OpenCode session in an empty git dir, under the judge's time and cost limits.
  const credentials = await options.selectCredentials(plan.model);
  const maxCostUSD = lowest(task.settings.judge.maxCostUSD, limits.maxCostUSD);
  const outcome = await runOpenCode({
    scratchDir: join(scratch, "opencode"),
    workspace: await createGitWorkspace(join(scratch, "workspace")),
    prompt: judgeUserPrompt(
      rubric,
      limits.phase,
      [
        task.case ? caseFactsText(task.case) : null,
        task.reference && limits.phase === "final"
          ? referenceFactsText(task.reference.score, task.reference.capped)
          : null,
      ]
        .filter((facts) => facts !== null)
        .join("\n\n") || undefined,
    ),
    model: plan.model,
    config,
    credentials,
    timeoutMs: task.settings.judge.timeoutMs,
    ...(maxCostUSD === undefined ? {} : { maxCostUSD }),
    ...(limits.signal ? { signal: limits.signal } : {}),
    ...(limits.marker ? { marker: limits.marker } : {}),
    eventsFile: at("events"),
    stderrFile: at("stderr"),
    secrets: credentials.secrets,
    ...(options.opencodeBinary ? { opencodeBinary: options.opencodeBinary } : {}),
  });

  // Step: archive the judge's own database; the verdict is read from the files it left.
  const database = await archiveJudgeDatabase(outcome, at("database"), credentials.secrets);
  await writeJsonAtomic(at("session"), describeSession(outcome, plan.model));
  return {
    outcome,
    criteria: plan.criteria,
    metrics: database
      ? measureJudgeSession(database, outcome, isPriced(plan.model, task.settings.candidate.providers))
      : null,
    files: {
      submission: at("submission"),
      continuation: at("continuation"),
      log: at("log"),
      stderr: at("stderr"),
      database,
    },
  };
}

function lowest(...limits: (number | undefined)[]): number | undefined {
  const given = limits.filter((limit): limit is number => limit !== undefined);
  return given.length === 0 ? undefined : Math.min(...given);
}

/** OpenCode that never started leaves no database; that is reported by the outcome, not thrown. */
async function archiveJudgeDatabase(
  outcome: OpenCodeOutcome,
  target: string,
  secrets: string[],
): Promise<string | null> {
  try {
    return (await archiveDatabase({ live: outcome.databasePath, target, secrets })).path;
  } catch {
    return null;
  }
}

/** A database that cannot be read has no metrics; how the session ended is still in its outcome and error. */
function measureJudgeSession(database: string, outcome: OpenCodeOutcome, priced: boolean): RunMetrics | null {
  try {
    return measureSession({
      database,
      elapsedMs: outcome.elapsedMs,
      extract: { priced, streamErrors: outcome.stepErrors, retries: outcome.retries },
      stream: { ledger: outcome.stream, killed: outcome.killed },
    }).metrics;
  } catch {
    return null;
  }
}

function describeSession(outcome: OpenCodeOutcome, model: string) {
  const { databasePath: _scratchPath, ...rest } = outcome;
  return { model, ...rest };
}
