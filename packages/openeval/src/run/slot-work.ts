// The two kinds of work the queue runs for a slot: execute its candidate (then queue its judging), and judge
// a finished recording. Failed candidates and infrastructure errors are never judged: they wait for `retry`.
import { randomUUID } from "node:crypto";
import type { ControlServer } from "@openeval/control-model";
import { executeCandidate } from "../candidate/index.ts";
import { selectCredentials } from "../opencode/index.ts";
import { createRubricGrader, gradeEvalRun, type RubricGrader, type VerificationSetup } from "../judge/index.ts";
import type { BenchmarkDefinition } from "../load/index.ts";
import type { PlannedSlot } from "../plan/index.ts";
import type { EvalRun } from "../results/index.ts";
import type { ResultsStore } from "../results/index.ts";
import type { RunnerListener } from "./events.ts";

export interface SlotWork {
  kind: "candidate" | "judge";
  slot: PlannedSlot;
  /** The recording to judge (judge work). */
  evalRun: EvalRun | null;
}

export interface WorkContext {
  benchmark: BenchmarkDefinition;
  store: ResultsStore;
  runId: string;
  controls: ControlServer | null;
  emit: RunnerListener;
  signal?: AbortSignal;
  gradeRubric: RubricGrader;
  verification: VerificationSetup | null;
  /** Eval runs executed by this invocation (live latency measurements). */
  fresh: Set<string>;
}

/** The LLM rubric judge, with the scripted judge's control server and the judge model's own credentials. */
export function rubricGraderFor(controls: ControlServer | null): RubricGrader {
  return createRubricGrader({
    controlBaseURL: (evalId) => controls?.baseURL(evalId) ?? null,
    selectCredentials: (model) => selectCredentials({ model, environment: process.env }),
  });
}

export function isJudgeable(evalRun: EvalRun): boolean {
  return !evalRun.infrastructureError && evalRun.state !== "failed" && evalRun.state !== "interrupted" && evalRun.state !== "running" && evalRun.evidence !== null;
}

export async function runCandidateWork(work: SlotWork, context: WorkContext, enqueue: (next: SlotWork) => void): Promise<void> {
  const { benchmark, store } = context;
  const { slot } = work;
  const key = slotKey(slot);
  const evalRunId = `eval_${randomUUID()}`;
  context.emit({ type: "candidate.started", slot: key, evalRunId });
  const evalRun = await executeCandidate({
    runId: context.runId,
    runDirectory: store.directory,
    evalRunId,
    slot: key,
    evaluation: evaluationOf(context, slot),
    settings: benchmark.settings,
    candidateFingerprint: slot.candidateFingerprint,
    controlBaseURL: context.controls?.baseURL(slot.evalId) ?? null,
    signal: context.signal,
    save: (record) => store.saveEvalRun(record),
  });
  context.fresh.add(evalRun.id);
  context.emit({ type: "candidate.finished", slot: key, evalRun });
  if (isJudgeable(evalRun) && !context.signal?.aborted) enqueue({ kind: "judge", slot, evalRun });
}

export async function runJudgeWork(work: SlotWork, context: WorkContext): Promise<void> {
  const { store } = context;
  const { slot } = work;
  const key = slotKey(slot);
  if (!work.evalRun) return;
  const judgeRunId = `judge_${randomUUID()}`;
  context.emit({ type: "judge.started", slot: key, judgeRunId });
  const judgeRun = await gradeEvalRun(
    {
      runId: context.runId,
      runDirectory: store.directory,
      judgeRunId,
      evalRun: work.evalRun,
      evaluation: evaluationOf(context, slot),
      settings: context.benchmark.settings,
      judgeFingerprint: slot.judgeFingerprint,
      verification: context.verification,
      save: (record) => store.saveJudgeRun(record),
    },
    context.gradeRubric,
  );
  context.emit({ type: "judge.finished", slot: key, judgeRun });
}

function evaluationOf(context: WorkContext, slot: PlannedSlot) {
  return context.benchmark.evals.find((evaluation) => evaluation.id === slot.evalId)!;
}

function slotKey(slot: PlannedSlot) {
  return { evalId: slot.evalId, model: slot.model, repetition: slot.repetition };
}
