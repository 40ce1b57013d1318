// The kinds of work the queue runs for a slot: execute its candidate (then queue its judging), judge a finished
// recording, and check a running candidate (earlyStop). Failed candidates and infrastructure errors are never
// judged: they wait for `retry`.
import type { RunIsolation } from "./candidate-isolation.ts";
import { randomUUID } from "node:crypto";
import type { ControlServer } from "@openeval/control-model";
import { executeCandidate } from "../candidate/index.ts";
import { parseModelRef, selectCredentials } from "../opencode/index.ts";
import {
  checkEarly,
  createRubricGrader,
  gradeEvalRun,
  integrityFindingsOf,
  type EarlyCheckLimits,
  type EarlyCheckResult,
  type PanelRequest,
  type RubricGrader,
  type RubricGraderOptions,
  type RubricTask,
  type VerificationSetup,
  judgeCaseOf,
} from "../judge/index.ts";
import {
  caseOf,
  CURRENT_VARIANT,
  evalForCase,
  earlyStopPolicy,
  judgePanelOf,
  mentionsVerification,
  type BenchmarkDefinition,
  type EarlyStopPolicy,
  type EvalDefinition,
  type VariantDefinition,
} from "../load/index.ts";
import { describeSlot, judgmentFingerprint, type PlannedSlot } from "../plan/index.ts";
import { describeOutcome, isJudgeable, toSlotKey, type EvalRun } from "../records/index.ts";
import type { ResultsStore } from "../records/index.ts";
import { checkMarker, createEarlyStopMonitor, decidedJudgeRun, type EarlyStopMonitor } from "./early-stop.ts";
import type { RunnerListener } from "../summary/index.ts";
import type { Preflight } from "./preflight.ts";
import type { EnginePool } from "../sandbox/index.ts";
import { placeOnEngine } from "./engine-lease.ts";
import type { ProviderLimiter } from "./provider-limiter.ts";

export interface SlotWork {
  kind: "candidate" | "judge" | "check";
  slot: PlannedSlot;
  /** The recording to judge (judge work). */
  evalRun: EvalRun | null;
  /** Candidate work watched by earlyStop checks. */
  monitored?: boolean;
  /** Check work: one earlyStop check of the slot's running candidate. */
  check?: () => Promise<void>;
}

export interface WorkContext {
  /** The benchmark as frozen for this invocation: its evals' folders are the run store's frozen copies. */
  benchmark: BenchmarkDefinition;
  /**
   * Puts an eval's frozen folder back as it was frozen (and reports what had changed) before it is used; false when
   * it or the frozen programs cannot be trusted (an integrity error, recorded): the work is then not done.
   */
  restoreInputs: (evalId: string, use: "candidate" | "judge") => Promise<boolean>;
  store: ResultsStore;
  runId: string;
  controls: ControlServer | null;
  emit: RunnerListener;
  signal?: AbortSignal;
  gradeRubric: RubricGrader;
  /** One earlyStop check of a snapshot with the rubric judge. */
  checkRubricEarly: (task: RubricTask, directory: string, limits: EarlyCheckLimits) => Promise<EarlyCheckResult>;
  verification: VerificationSetup | null;
  /** Eval runs executed by this invocation (live latency measurements). */
  fresh: Set<string>;
  isolation: RunIsolation;
  /** Every secret the runner can see: redacted from judge archives too. */
  secrets: readonly string[];
  /** The code-judge worker as frozen for this invocation (null: nothing to grade with code). */
  codeWorker: string | null;
  /** Whether a model's endpoint is reachable, checked once before its first slot. */
  preflight: Preflight;
  /** The container engines candidates and verifications are placed on; null when the run uses none. */
  engines: EnginePool | null;
  /** Each provider's share of the candidate lanes, paced by its 429 and 503 answers; absent: no pacing. */
  providers?: ProviderLimiter;
}

/**
 * The LLM rubric judge, with the scripted judge's control server, the judge model's own credentials and the tool
 * server frozen with the run (null: nothing to grade with a rubric).
 */
export function rubricJudgesFor(
  controls: ControlServer | null,
  toolServer: string | null,
): Pick<WorkContext, "gradeRubric" | "checkRubricEarly"> {
  const options: RubricGraderOptions = {
    controlBaseURL: (evalId) => controls?.baseURL(evalId) ?? null,
    selectCredentials: (model) => selectCredentials({ model, environment: process.env }),
    ...(toolServer ? { toolServer } : {}),
  };
  return {
    gradeRubric: createRubricGrader(options),
    checkRubricEarly: (task, directory, limits) => checkEarly(task, directory, options, limits),
  };
}

export async function runCandidateWork(
  work: SlotWork,
  context: WorkContext,
  enqueue: (next: SlotWork) => void,
): Promise<void> {
  if (context.signal?.aborted) return; // the runner is stopping: nothing new starts
  const { benchmark, store } = context;
  const { slot } = work;
  const key = toSlotKey(slot);
  const evalRunId = `eval_${randomUUID()}`;
  const evaluation = evaluationOf(context, slot);
  if (!(await context.restoreInputs(slot.evalId, "candidate"))) return;
  let latest: EvalRun | null = null;
  const policy = work.monitored ? earlyStopPolicy(evaluation.settings.earlyStop, slot.model) : null;
  const monitor = policy ? monitorCandidate(slot, evaluation, policy, context, evalRunId, () => latest, enqueue) : null;
  const isolation = context.isolation.runtimeFor(slot.model, evaluation).isolation;
  const setupProblem = context.isolation.problemFor(evaluation);
  const placement =
    isolation === "container" && !setupProblem && context.engines
      ? await placeOnEngine(context.engines, context.signal)
      : null;
  if (placement?.kind === "stopping") return;
  const lease = placement?.kind === "placed" ? placement.lease : null;
  context.emit({ type: "candidate.started", slot: key, evalRunId });
  const endpointProblem = await context.preflight.check(slot.model);
  const pinned = context.isolation.pinnedFor(slot.model, evaluation);
  const provider = context.providers?.watch(parseModelRef(slot.model).provider);
  const evalRun = await executeCandidate({
    runId: context.runId,
    runDirectory: store.directory,
    evalRunId,
    slot: key,
    evaluation,
    variant: variantDefinitionOf(context, slot),
    settings: benchmark.settings,
    candidateFingerprint: slot.candidateFingerprint,
    isolation,
    pinned: lease ? { ...pinned, engine: lease.options } : pinned,
    setupProblem,
    controlBaseURL: context.controls?.baseURL(slot.evalId) ?? null,
    signal: placement?.kind === "placed" ? placement.signal : context.signal,
    ...(lease ? { engine: { name: lease.name, lost: lease.check } } : {}),
    ...(placement?.kind === "unplaced" ? { interruptedBy: `Interrupted: ${placement.problem}` } : {}),
    ...(monitor ? { monitor } : {}),
    ...(endpointProblem ? { endpointProblem } : {}),
    ...(provider ? { onProviderSignal: provider.observe } : {}),
    recheckEndpoint: () => context.preflight.recheck(slot.model),
    save: (record) => {
      latest = record;
      store.saveEvalRun(record);
    },
  }).finally(() => provider?.end());
  lease?.release({ failed: evalRun.state === "failed" || evalRun.state === "interrupted" });
  context.fresh.add(evalRun.id);
  context.emit({ type: "candidate.finished", slot: key, evalRun, outcome: describeOutcome(evalRun) });
  const decision = monitor?.decision() ?? null;
  if (decision && evalRun.state === "stopped") {
    const judgeRun = {
      ...decidedJudgeRun(evalRun, decision, {
        judgeRunId: `judge_${randomUUID()}`,
        judgeFingerprint: slot.judgeFingerprint,
      }),
      integrityFindings: await integrityFindingsOf(store.directory, evalRun, evaluation),
    };
    context.emit({ type: "judge.started", slot: key, judgeRunId: judgeRun.id });
    store.saveJudgeRun(judgeRun);
    context.emit({ type: "judge.finished", slot: key, judgeRun });
    return;
  }
  if (isJudgeable(evalRun) && !context.signal?.aborted) enqueue({ kind: "judge", slot, evalRun });
}

/** earlyStop: checks of snapshots of this candidate, queued as check work on the run's queue. */
function monitorCandidate(
  slot: PlannedSlot,
  evaluation: EvalDefinition,
  policy: EarlyStopPolicy,
  context: WorkContext,
  evalRunId: string,
  running: () => EvalRun | null,
  enqueue: (next: SlotWork) => void,
): EarlyStopMonitor {
  return createEarlyStopMonitor({
    policy,
    runDirectory: context.store.directory,
    evalRunId,
    schedule: (check) => enqueue({ kind: "check", slot, evalRun: null, check }),
    judge: (checkpoint, directory, limits) =>
      context.checkRubricEarly(
        {
          judgeRunId: `${evalRunId}-check`,
          evidence: checkpoint,
          run: running(),
          // A panel cannot decide early (refused at load): checks are graded by the one judge model.
          judgeModel: judgePanelOf(context.benchmark.settings).models[0]!,
          candidateModel: slot.model,
          evaluation,
          settings: context.benchmark.settings,
          case: judgeCaseOf(evaluation, slot.case),
        },
        directory,
        { ...limits, marker: checkMarker(evalRunId) },
      ),
    onCheck: (check) => context.emit({ type: "check.finished", slot: toSlotKey(slot), evalRunId, check }),
  });
}

export async function runJudgeWork(work: SlotWork, context: WorkContext): Promise<void> {
  const { store } = context;
  const { slot } = work;
  const key = toSlotKey(slot);
  if (!work.evalRun || context.signal?.aborted) return;
  const judgeRunId = `judge_${randomUUID()}`;
  if (!(await context.restoreInputs(slot.evalId, "judge"))) return;
  const evaluation = evaluationOf(context, slot);
  const environment = context.isolation.environments.pinnedFor(evaluation.id);
  const verifies = (context.verification !== null && mentionsVerification(evaluation)) || evaluation.harbor !== null;
  const placement = verifies && context.engines ? await placeOnEngine(context.engines, context.signal) : null;
  if (placement?.kind === "stopping") return;
  // No engine can verify it now: it stays unjudged, and the next run judges it (as it would interrupted judging).
  if (placement?.kind === "unplaced") {
    context.emit({
      type: "notice",
      message: `Judging ${describeSlot(slot)} waits for the next run: ${placement.problem}`,
    });
    return;
  }
  const lease = placement?.kind === "placed" ? placement.lease : null;
  context.emit({ type: "judge.started", slot: key, judgeRunId });
  const judgeRun = await gradeEvalRun(
    {
      runId: context.runId,
      runDirectory: store.directory,
      judgeRunId,
      evalRun: work.evalRun,
      evaluation,
      settings: context.benchmark.settings,
      judgeFingerprint: slot.judgeFingerprint,
      verification: context.verification,
      environment: environment ? { image: environment.image, workdir: environment.environment.workdir } : null,
      ...(lease ? { engine: lease.options } : {}),
      ...(placement?.kind === "placed"
        ? { signal: placement.signal }
        : context.signal
          ? { signal: context.signal }
          : {}),
      secrets: context.secrets,
      ...(context.codeWorker ? { codeWorker: context.codeWorker } : {}),
      panel: evaluation.rubric ? panelRequest(context, evaluation, slot, work.evalRun.id) : null,
      save: (record) => store.saveJudgeRun(record),
    },
    context.gradeRubric,
  );
  lease?.release({ failed: judgeRun.state !== "completed" });
  context.emit({ type: "judge.finished", slot: key, judgeRun });
}

/** The benchmark's judge models, and the judgments earlier judge runs of this recording made, oldest first. */
function panelRequest(
  context: WorkContext,
  evaluation: EvalDefinition,
  slot: PlannedSlot,
  evalRunId: string,
): PanelRequest {
  const { settings } = context.benchmark;
  const { models, combine } = judgePanelOf(settings);
  return {
    judges: models.map((model) => ({
      model,
      fingerprint: judgmentFingerprint(evaluation, settings, model, caseOf(evaluation, slot.case)),
    })),
    combine,
    previous: context.store.judgeRuns(evalRunId).flatMap((judgeRun) => judgeRun.panel ?? []),
    repeat: typeof slot.judging === "object" ? slot.judging.repeat : 0,
    reuse: slot.judging !== "fresh",
  };
}

/** The slot's eval as its work sees it: for a case's slot, prompt.md rendered over that case. */
function evaluationOf(context: WorkContext, slot: PlannedSlot) {
  return evalForCase(context.benchmark.evals.find((evaluation) => evaluation.id === slot.evalId)!, slot.case);
}

function variantDefinitionOf(context: WorkContext, slot: PlannedSlot): VariantDefinition {
  return context.benchmark.variants.find((variant) => variant.name === slot.variant) ?? CURRENT_VARIANT;
}
