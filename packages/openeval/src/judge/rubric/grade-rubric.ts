// The LLM rubric judge (SPEC §8.2) as a RubricGrader: one isolated OpenCode session of the judge model, with only
// the judge tools, grading one eval run; everything it did is archived in the judge run's `rubric/` folder.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { archiveDatabase, buildProviderConfig, createGitWorkspace, runOpenCode, type OpenCodeOutcome } from "../../opencode/index.ts";
import type { EvidenceRef } from "../../recording/index.ts";
import { writeJsonAtomic } from "../../util/files.ts";
import type { RubricGrader, SourceOutcome } from "../grade-eval-run.ts";
import type { BenchmarkSettings, EvalDefinition } from "../../load/index.ts";
import type { EvalRun } from "../../results/index.ts";
import { resolveJudgeModel } from "./control-judge.ts";
import { buildJudgeConfig, judgeUserPrompt } from "./judge-agent.ts";
import { readJudgment } from "./read-judgment.ts";
import type { JudgeJob } from "./schema.ts";

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
  /** Override the pinned OpenCode binary. */
  opencodeBinary?: string;
}

/** Files of a rubric judge run, inside its `rubric/` folder. */
export const RUBRIC_FILES = {
  job: "job.json",
  agent: "judge-agent.json",
  submission: "submission.json",
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
  /** The candidate's model (for `control/judge`, which plays that control's verdict); null for constructed evidence. */
  candidateModel: string | null;
  evaluation: Pick<EvalDefinition, "id" | "rubric" | "controls">;
  settings: BenchmarkSettings;
}

/**
 * @example
 * const gradeRubric = createRubricGrader({ controlBaseURL: (id) => server.baseURL(id), selectCredentials });
 * const judgeRun = await gradeEvalRun(request, gradeRubric);
 */
export function createRubricGrader(options: RubricGraderOptions): RubricGrader {
  return async (request, directory) => {
    const { evalRun } = request;
    if (!evalRun.evidence) return { state: "failed", scores: null, error: `eval run ${evalRun.id} has no recording to judge` };
    const task: RubricTask = {
      judgeRunId: request.judgeRunId,
      evidence: { directory: resolve(request.runDirectory, evalRun.evidence.directory), hash: evalRun.evidence.hash },
      run: evalRun,
      candidateModel: evalRun.slot.model,
      evaluation: request.evaluation,
      settings: request.settings,
    };
    return gradeRubricTask(task, directory, options);
  };
}

/** Grades one task; every failure is a recorded outcome, never a thrown error or a candidate's 0. */
export async function gradeRubricTask(task: RubricTask, directory: string, options: RubricGraderOptions): Promise<SourceOutcome> {
  const plan = planJudgeRun(task, options);
  if ("error" in plan) return { state: "failed", scores: null, error: plan.error };
  const scratch = await mkdtemp(join(tmpdir(), `openeval-judge-${task.judgeRunId}-`));
  try {
    // Absolute: the tool server runs in the judge's own working directory.
    return await runJudge(task, resolve(directory), plan, scratch, options);
  } catch (error) {
    return { state: "failed", scores: null, error: `the rubric judge could not run: ${(error as Error).message}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Step: everything that can be refused before any process starts. */
function planJudgeRun(task: RubricTask, options: RubricGraderOptions): JudgePlan | { error: string } {
  const { evaluation, settings } = task;
  if (!evaluation.rubric) return { error: `eval ${evaluation.id} has no judge.md to grade with` };
  if (!settings.judge.model) return { error: "judge.md needs judge.model in benchmark.ts; set it to the model that should grade" };
  const resolved = resolveJudgeModel(settings.judge.model, task.candidateModel, evaluation.controls);
  if ("error" in resolved) return resolved;
  try {
    return {
      model: resolved.model,
      evidence: task.evidence,
      criteria: evaluation.rubric.criteria.map((criterion) => criterion.id),
      provider: buildProviderConfig(resolved.model, settings.candidate.providers, options.controlBaseURL(evaluation.id)),
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function runJudge(task: RubricTask, directory: string, plan: JudgePlan, scratch: string, options: RubricGraderOptions): Promise<SourceOutcome> {
  const rubric = task.evaluation.rubric!;
  const at = (name: keyof typeof RUBRIC_FILES) => join(directory, RUBRIC_FILES[name]);
  await mkdir(directory, { recursive: true });
  // A retried judge run starts clean: a stale submission would be refused as a resubmission, then read as this one's.
  await Promise.all(Object.keys(RUBRIC_FILES).map((name) => rm(at(name as keyof typeof RUBRIC_FILES), { force: true })));

  // Step: the job the tool server reads, and the agent definition (archived without provider settings).
  const job: JudgeJob = { evidence: plan.evidence, run: task.run, criteria: plan.criteria, submissionFile: at("submission"), logFile: at("log") };
  await writeJsonAtomic(at("job"), job);
  const config = buildJudgeConfig({ rubric, provider: plan.provider, jobFile: at("job"), bunBinary: options.bunBinary ?? process.execPath });
  const { provider: _provider, ...agent } = config;
  await writeJsonAtomic(at("agent"), { model: plan.model, ...agent });

  // Step: one isolated OpenCode session in an empty git dir, under the judge's time limit.
  const credentials = await options.selectCredentials(plan.model);
  const outcome = await runOpenCode({
    scratchDir: join(scratch, "opencode"),
    workspace: await createGitWorkspace(join(scratch, "workspace")),
    prompt: judgeUserPrompt(rubric),
    model: plan.model,
    config,
    credentials,
    timeoutMs: task.settings.judge.timeoutMs,
    maxCostUSD: task.settings.judge.maxCostUSD,
    eventsFile: at("events"),
    stderrFile: at("stderr"),
    secrets: credentials.secrets,
    ...(options.opencodeBinary ? { opencodeBinary: options.opencodeBinary } : {}),
  });

  // Step: archive the judge's own database, then read the verdict from the files it left.
  const database = await archiveJudgeDatabase(outcome, at("database"), credentials.secrets);
  await writeJsonAtomic(at("session"), describeSession(outcome, plan.model));
  return readJudgment({ submission: at("submission"), log: at("log"), stderr: at("stderr"), database }, outcome, plan.criteria);
}

/** OpenCode that never started leaves no database; that is reported by the outcome, not thrown. */
async function archiveJudgeDatabase(outcome: OpenCodeOutcome, target: string, secrets: string[]): Promise<string | null> {
  try {
    return (await archiveDatabase({ live: outcome.databasePath, target, secrets })).path;
  } catch {
    return null;
  }
}

function describeSession(outcome: OpenCodeOutcome, model: string) {
  const { databasePath: _scratchPath, ...rest } = outcome;
  return { model, ...rest };
}
