// An eval run as the list shows it, read through from the records the index keeps rather than copied out of them:
// copied rows would add to a large run's viewer's live heap for every eval run. Its score is kept,
// since the list sorts by it; JSON (the API, a static export) gets the plain row.
import { candidateName, creditsOf, describeOutcome, toCandidateRef, type EvalRunOutcome } from "../records/index.ts";
import { slotCredit } from "../results/index.ts";
import type { EvalRunRow } from "./api-types.ts";
import type { IndexedEvalRun, IndexedJudgeRun } from "../summary/index.ts";

export class IndexedEvalRunRow implements EvalRunRow {
  readonly value: number | null;

  constructor(
    private readonly evalRun: IndexedEvalRun,
    /** The active slot's judgment, else the eval run's own latest one. */
    private readonly judgeRun: IndexedJudgeRun | null,
    readonly active: boolean,
  ) {
    this.value = slotCredit(creditsOf(judgeRun));
  }

  get id(): string {
    return this.evalRun.id;
  }
  get evalId(): string {
    return this.evalRun.slot.evalId;
  }
  get model(): string {
    return this.evalRun.slot.model;
  }
  /** As the list's rows name candidates: absent for current. */
  get variant(): string | undefined {
    return toCandidateRef(this.evalRun.slot).variant;
  }
  get candidate(): string {
    return candidateName(this.evalRun.slot);
  }
  get repetition(): number {
    return this.evalRun.slot.repetition;
  }
  get case(): string | undefined {
    return this.evalRun.slot.case;
  }
  get control(): boolean {
    return this.evalRun.control;
  }
  get state(): IndexedEvalRun["state"] {
    return this.evalRun.state;
  }
  get infrastructureError(): boolean {
    return this.evalRun.infrastructureError;
  }
  get outcome(): EvalRunOutcome {
    return describeOutcome(this.evalRun);
  }
  get error(): string | null {
    return this.evalRun.error;
  }
  get startedAt(): string {
    return this.evalRun.startedAt;
  }
  get elapsedMs(): number | null {
    return this.evalRun.elapsedMs;
  }
  get costUSD(): number | null {
    return this.evalRun.metrics?.cost.usd ?? null;
  }
  get toolCalls(): number | null {
    return this.evalRun.metrics?.tools.calls ?? null;
  }
  get judgeRunId(): string | null {
    return this.judgeRun?.id ?? null;
  }
  get judgeState(): IndexedJudgeRun["state"] | null {
    return this.judgeRun?.state ?? null;
  }

  toJSON(): EvalRunRow {
    const { variant, case: caseId } = this;
    return {
      id: this.id,
      evalId: this.evalId,
      model: this.model,
      ...(variant === undefined ? {} : { variant }),
      candidate: this.candidate,
      repetition: this.repetition,
      ...(caseId === undefined ? {} : { case: caseId }),
      control: this.control,
      state: this.state,
      infrastructureError: this.infrastructureError,
      outcome: this.outcome,
      error: this.error,
      startedAt: this.startedAt,
      elapsedMs: this.elapsedMs,
      costUSD: this.costUSD,
      toolCalls: this.toolCalls,
      active: this.active,
      judgeRunId: this.judgeRunId,
      judgeState: this.judgeState,
      value: this.value,
    };
  }
}
