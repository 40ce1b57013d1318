// The planner: for every slot (eval × case × model × variant × repetition), what to do now and why. It reads the
// definition and the store only: planning never executes author code and never calls a model.
import {
  categoryKey,
  CURRENT_VARIANT,
  inCategories,
  type BenchmarkDefinition,
  type EvalDefinition,
  type Isolation,
  type VariantDefinition,
} from "../load/index.ts";
import {
  capitalizeOutcome,
  candidateName,
  describeOutcome,
  RecordedWorkIndex,
  toSlotKey,
  type ActiveWork,
  type EvalRunHead,
  type JudgeRunHead,
  type RunModels,
  type SlotKey,
} from "../records/index.ts";
import {
  candidateMaxCost,
  checksMaxCost,
  candidateCostEstimator,
  judgeMaxCost,
  limitWork,
  maximumCost,
  unknownCandidateCost,
  type MaximumCost,
  type WorkCost,
} from "./cost.ts";
import { candidateFingerprint, judgeFingerprint, PROCESS_RUNTIME, type CandidateRuntime } from "./fingerprints.ts";
import { isPriced } from "../util/model-pricing.ts";
import { asClause, describeState } from "../util/words.ts";

export type SlotAction = "candidate" | "judge" | "reuse" | "failed" | "deferred";

/**
 * A slot's action, with the recorded work it names: the eval and judge runs' heads (run-heads.ts) by default, which is
 * what a plan reads; the whole records when planned from them (the run summary, the runner).
 */
export interface PlannedSlot<E extends EvalRunHead = EvalRunHead, J extends JudgeRunHead = JudgeRunHead>
  extends SlotKey {
  action: SlotAction;
  reason: string;
  /**
   * Why a deferred slot waits: outside the --only-* scope; held back by --offline / --max-cost; or, with adaptive
   * repetitions, a repetition its comparisons no longer need (`decided`) or one of a later round (`round`).
   */
  deferredBy?: "scope" | "offline" | "budget" | "decided" | "round";
  candidateFingerprint: string;
  judgeFingerprint: string;
  /** The recording to judge or reuse, when there is one. */
  evalRun: E | null;
  judgeRun: J | null;
  /** The slot's execution that never finished (action `candidate`): never judged, but what it spent was spent. */
  interruptedRun?: E;
  /**
   * How judge work treats the recording's earlier rubric judgments: `fresh` (an explicit rejudge) grades every judge
   * again; `{ repeat }` (rejudge --repeat) keeps them and grades each judge that many more times. Absent: judgments
   * with unchanged inputs are kept, the rest are graded.
   */
  judging?: "fresh" | { repeat: number };
}

/** Where adaptive repetitions stand (summary/adaptive-rounds.ts decides it from the recorded work). */
export interface PlanRounds {
  /** The highest repetition the current round runs. */
  level: number;
  /** Whether the slot's candidate needs no repetition after `after`: every comparison it is in was decided then. */
  stopped(slot: SlotKey): { after: number; reason: string } | null;
}

export interface PlanScope {
  /** `--model` (OpenEval's meaning): models added to the run, besides benchmark.ts's and those the run already holds. */
  models?: string[];
  /** Exactly these models, instead of benchmark.ts's and the run's (calibration runs controls only; readResults scores the run's). */
  replaceModels?: string[];
  onlyModels?: string[];
  /** `--variant`: the variants to run besides current (default: every variant of benchmark.ts); they block too. */
  variants?: string[];
  onlyVariants?: string[];
  onlyEvals?: string[];
  /** `--only-case`: only these cases' slots (of the evals that have them); evals without cases wait. */
  onlyCases?: string[];
  /** `--only-category`: only evals with a criterion in these categories, scored by those criteria. */
  onlyCategories?: string[];
  onlyRepetitions?: number[];
  /** Ignore recorded work (`--fresh`). */
  fresh?: boolean;
  /** No model calls: candidate runs and LLM judges are deferred and reported (`--offline`). */
  offline?: boolean;
  /** Hard pre-spend cap in USD (`--max-cost`). */
  maxCostUSD?: number;
  /** No earlyStop checks: candidates run to their end and are graded then (`--final-only`). */
  finalOnly?: boolean;
  /** `--isolation`: every model's candidates run in this backend (default: container for real models, process for controls). */
  isolation?: Isolation;
  /** Eval runs to execute again although they failed (`openeval retry`). */
  retry?: readonly string[];
  /**
   * Eval runs to grade again (`openeval rejudge <eval-run>`), every failed judgment (`"failed"`), or every judged
   * recording (`"judged"`, with `repeatJudgments`).
   */
  rejudge?: readonly string[] | "failed" | "judged";
  /** `rejudge --repeat N`: grade the recordings N more times with every judge model, keeping earlier judgments. */
  repeatJudgments?: number;
  /** Adaptive repetitions: the round being run and the candidates whose comparisons are decided. */
  rounds?: PlanRounds;
  /** Do only what retry/rejudge asked for; other pending work waits for `openeval run`. */
  explicitOnly?: boolean;
}

export interface Plan<E extends EvalRunHead = EvalRunHead, J extends JudgeRunHead = JudgeRunHead> {
  slots: PlannedSlot<E, J>[];
  /** Expected spend of the planned work: null when any part of it has no cost history. */
  estimate: { usd: number | null };
  /** The most the planned work can spend, and the work nothing bounds. */
  maximum: MaximumCost;
}

/** What the planner needs from a store: every eval run and judge run recorded so far (whole, or their heads), and the run's models. */
export interface RecordedWork<E extends EvalRunHead = EvalRunHead, J extends JudgeRunHead = JudgeRunHead> {
  evalRuns: readonly E[];
  judgeRuns: readonly J[];
  /** Absent for a run not yet created. */
  runModels?: RunModels;
}

/**
 * The models a plan covers: `replaceModels` when given; otherwise the run's models, then benchmark.ts's (less those
 * the run retired with remove-models), then `--model`'s, each once.
 * @example plannedModels(benchmark, { models: ["openai/gpt-5"] }) // [...benchmark.settings.models, "openai/gpt-5"]
 */
export function plannedModels(benchmark: BenchmarkDefinition, scope: PlanScope, runModels?: RunModels): string[] {
  if (scope.replaceModels) return [...new Set(scope.replaceModels)];
  const retired = new Set(runModels?.retired ?? []);
  const configured = benchmark.settings.models.filter((model) => !retired.has(model));
  return [...new Set([...(runModels?.active ?? []), ...configured, ...(scope.models ?? [])])];
}

/**
 * `verificationImage(evalId)`: the image a verification-using judge would run with (it enters the judge fingerprint);
 * `candidateRuntime(model)`: where that model's candidates run (the container image enters the candidate fingerprint).
 */
export function planSlots<E extends EvalRunHead, J extends JudgeRunHead>(
  benchmark: BenchmarkDefinition,
  recorded: RecordedWork<E, J>,
  scope: PlanScope = {},
  verificationImage: (evalId: string) => string | null = () => null,
  candidateRuntime: (model: string, evaluation: EvalDefinition) => CandidateRuntime = () => PROCESS_RUNTIME,
): Plan<E, J> {
  const models = plannedModels(benchmark, scope, recorded.runModels);
  const variants = plannedVariants(benchmark, scope);
  const index = scope.fresh
    ? new RecordedWorkIndex<E, J>([], [])
    : new RecordedWorkIndex(recorded.evalRuns, recorded.judgeRuns);
  const slots: PlannedSlot<E, J>[] = [];
  const categorized = scope.onlyCategories
    ? new Set(
        benchmark.evals
          .filter((evaluation) => scoredCriteria(evaluation, scope).length > 0)
          .map((evaluation) => evaluation.id),
      )
    : null;
  // An eval without cases is one case with no id: its slots have no `case`, as they always had.
  for (const [evaluation, evalCase] of benchmark.evals.flatMap((evaluation) =>
    (evaluation.cases ?? [null]).map((item) => [evaluation, item] as const),
  )) {
    const judgeHash = judgeFingerprint(evaluation, benchmark.settings, verificationImage(evaluation.id), evalCase);
    const caseKey = evalCase ? { case: evalCase.id } : {};
    for (const model of models) {
      for (const variant of variants) {
        const candidateHash = candidateFingerprint(
          evaluation,
          model,
          benchmark.settings,
          candidateRuntime(model, evaluation),
          variant,
          evalCase,
        );
        const expected = { candidateFingerprint: candidateHash, judgeFingerprint: judgeHash };
        for (let repetition = 1; repetition <= benchmark.settings.repetitions; repetition++) {
          const key = toSlotKey({ evalId: evaluation.id, model, repetition, variant: variant.name, ...caseKey });
          // Only retry names a slot by its latest execution: looking that up for every slot cost a key string each.
          const decision: Decision<E, J> =
            inScope(key, scope) && (categorized?.has(key.evalId) ?? true)
              ? applyRounds(
                  applyExplicitRequests(
                    decide(index.activeWork(key, expected)),
                    // Only a rubric has judgments to repeat.
                    evaluation.rubric ? scope : { ...scope, repeatJudgments: 0 },
                    scope.retry?.length ? index.latest(key)?.id : undefined,
                  ),
                  key,
                  scope.rounds,
                )
              : {
                  action: "deferred",
                  reason: "Outside the --only-* scope",
                  deferredBy: "scope",
                  evalRun: null,
                  judgeRun: null,
                };
          slots.push({ ...key, ...decision, candidateFingerprint: candidateHash, judgeFingerprint: judgeHash });
        }
      }
    }
  }
  const evalsById = new Map(benchmark.evals.map((evaluation) => [evaluation.id, evaluation]));
  const hasRubric = (slot: SlotKey) => evalsById.get(slot.evalId)?.rubric != null;
  const cost: WorkCost = {
    maxCost: (slot) => {
      const judge = judgeMaxCost(
        hasRubric(slot),
        benchmark.settings,
        typeof slot.judging === "object" ? slot.judging.repeat : 1,
      );
      if (slot.action !== "candidate") return judge;
      const candidate = candidateMaxCost(slot.model, benchmark.settings);
      const checks = scope.finalOnly ? 0 : checksMaxCost(evalsById.get(slot.evalId)!, benchmark.settings, slot.model);
      return judge === null || candidate === null ? null : judge + candidate + checks;
    },
    callsModel: (slot) => slot.action === "candidate" || hasRubric(slot),
    whyUnknown: (slot) => {
      if (slot.action === "candidate" && candidateMaxCost(slot.model, benchmark.settings) === null)
        return unknownCandidateCost(slot.model, benchmark.settings);
      return "set judge.maxCostUSD to bound it";
    },
  };
  const limited = limitWork(slots, scope, cost);
  return {
    slots: limited,
    estimate: { usd: estimate(limited, recorded.evalRuns, benchmark) },
    maximum: maximumCost(limited, cost),
  };
}

function estimate(
  slots: readonly PlannedSlot[],
  recorded: readonly EvalRunHead[],
  benchmark: BenchmarkDefinition,
): number | null {
  const candidates = slots.filter((slot) => slot.action === "candidate");
  // The recorded costs are grouped only for a plan with candidate runs to estimate (a run's summary never has any).
  if (candidates.length === 0) return 0;
  const estimateCandidateCost = candidateCostEstimator(recorded);
  let total = 0;
  for (const slot of candidates) {
    const max = candidateMaxCost(slot.model, benchmark.settings);
    const cost =
      max === 0
        ? 0
        : max === null && !isPriced(slot.model, benchmark.settings.candidate.providers)
          ? null
          : estimateCandidateCost(slot);
    if (cost === null) return null;
    total += cost;
  }
  return total;
}

/** Current always runs; then every variant of benchmark.ts, or those `--variant` names (checkScope checked them). */
export function plannedVariants(benchmark: BenchmarkDefinition, scope: PlanScope): VariantDefinition[] {
  const chosen = scope.variants
    ? benchmark.variants.filter((variant) => scope.variants!.includes(variant.name))
    : benchmark.variants;
  return [CURRENT_VARIANT, ...chosen];
}

/** The criteria an eval is scored by in this scope: with --only-category, those in the categories; else all. */
export function scoredCriteria(
  evaluation: EvalDefinition,
  scope: Pick<PlanScope, "onlyCategories">,
): EvalDefinition["criteria"] {
  if (!scope.onlyCategories) return evaluation.criteria;
  const keys = scope.onlyCategories.map(categoryKey);
  return evaluation.criteria.filter((criterion) => inCategories(criterion.categories, keys));
}

function inScope(slot: SlotKey, scope: PlanScope): boolean {
  return (
    (!scope.onlyEvals || scope.onlyEvals.includes(slot.evalId)) &&
    (!scope.onlyCases || (slot.case !== undefined && scope.onlyCases.includes(slot.case))) &&
    (!scope.onlyModels || scope.onlyModels.includes(slot.model)) &&
    (!scope.onlyVariants || scope.onlyVariants.includes(slot.variant)) &&
    (!scope.onlyRepetitions || scope.onlyRepetitions.includes(slot.repetition))
  );
}

/** Adaptive repetitions hold back work its round does not run yet, or that a decided comparison no longer needs. */
function applyRounds<E extends EvalRunHead, J extends JudgeRunHead>(
  decision: Decision<E, J>,
  slot: SlotKey,
  rounds: PlanRounds | undefined,
): Decision<E, J> {
  if (!rounds || (decision.action !== "candidate" && decision.action !== "judge")) return decision;
  const stopped = rounds.stopped(slot);
  if (stopped && slot.repetition > stopped.after)
    return {
      ...decision,
      action: "deferred",
      deferredBy: "decided",
      reason: `Adaptive repetitions: decided after repetition ${stopped.after} (${stopped.reason})`,
    };
  if (slot.repetition > rounds.level)
    return {
      ...decision,
      action: "deferred",
      deferredBy: "round",
      reason: `Adaptive repetitions: repetition ${slot.repetition} waits for its round, if its comparisons are still undecided then`,
    };
  return decision;
}

type Decision<E extends EvalRunHead, J extends JudgeRunHead> = Pick<
  PlannedSlot<E, J>,
  "action" | "reason" | "evalRun" | "judgeRun" | "deferredBy" | "interruptedRun" | "judging"
>;

/** The slot's action and its reason, from the work that counts for it (records/active-work.ts decides which). */
function decide<E extends EvalRunHead, J extends JudgeRunHead>(work: ActiveWork<E, J>): Decision<E, J> {
  const { evalRun, judgeRun } = work;
  switch (work.status) {
    case "missing":
      return { action: "candidate", reason: "New eval/model/repetition", evalRun: null, judgeRun: null };
    case "inputsChanged":
      return { action: "candidate", reason: "Candidate inputs changed", evalRun: null, judgeRun: null };
    case "interrupted":
      return {
        action: "candidate",
        reason: "The previous execution was interrupted before it finished",
        evalRun: null,
        judgeRun: null,
        interruptedRun: evalRun!,
      };
    case "candidateFailed": {
      const why = capitalizeOutcome(describeOutcome(evalRun!));
      const detail = evalRun!.error;
      // A message that already opens with its outcome ("Setup error of …") is not prefixed with it again.
      const said =
        detail === null ? why : detail.toLowerCase().startsWith(why.toLowerCase()) ? detail : `${why}: ${detail}`;
      return {
        action: "failed",
        reason: `${asClause(said)}; retry it explicitly with openeval retry`,
        evalRun,
        judgeRun: null,
      };
    }
    case "unjudged":
      return { action: "judge", reason: "Recorded work is ready for judging", evalRun, judgeRun: null };
    case "judgeInterrupted":
      return {
        action: "judge",
        reason: "The previous judgment was interrupted before it finished",
        evalRun,
        judgeRun: null,
      };
    case "judgeInputsChanged":
      return { action: "judge", reason: "Judge inputs changed", evalRun, judgeRun: null };
    case "judgeFailed":
      return {
        action: "failed",
        reason: `Judge ${describeState(judgeRun!.state)}${judgeRun!.error ? `: ${asClause(judgeRun!.error)}` : ""}; rejudge it explicitly with openeval rejudge`,
        evalRun,
        judgeRun,
      };
    case "scored":
      return { action: "reuse", reason: "Candidate inputs and judgment unchanged", evalRun, judgeRun };
  }
}

/** Failed work is never retried silently: only `retry` and `rejudge` turn it back into work. */
function applyExplicitRequests<E extends EvalRunHead, J extends JudgeRunHead>(
  decision: Decision<E, J>,
  scope: PlanScope,
  activeEvalRunId: string | undefined,
): Decision<E, J> {
  const explicit = explicitRequest(decision, scope, activeEvalRunId);
  if (explicit) return explicit;
  if (scope.explicitOnly && (decision.action === "candidate" || decision.action === "judge")) {
    return {
      ...decision,
      action: "deferred",
      deferredBy: "scope",
      reason: `Not part of this retry/rejudge (${decision.reason.toLowerCase()}); openeval run does it`,
    };
  }
  return decision;
}

/** `activeEvalRunId`: the slot's latest execution, which retry names (an interrupted one is not decision.evalRun). */
function explicitRequest<E extends EvalRunHead, J extends JudgeRunHead>(
  decision: Decision<E, J>,
  scope: PlanScope,
  activeEvalRunId: string | undefined,
): Decision<E, J> | null {
  if (activeEvalRunId !== undefined && scope.retry?.includes(activeEvalRunId)) {
    return { action: "candidate", reason: `Explicit retry of ${activeEvalRunId}`, evalRun: null, judgeRun: null };
  }
  const evalRunId = decision.evalRun?.id;
  if (!evalRunId) return null;
  const judgeFailed = decision.action === "failed" && decision.judgeRun !== null;
  const candidateFailed = decision.action === "failed" && decision.judgeRun === null;
  const listed = Array.isArray(scope.rejudge) && scope.rejudge.includes(evalRunId);
  const repeat = scope.repeatJudgments ?? 0;
  if (repeat > 0 && (listed || (scope.rejudge === "judged" && decision.action === "reuse"))) {
    if (candidateFailed) return null;
    return {
      ...decision,
      action: "judge",
      reason: `Repeated judging of ${evalRunId}: each judge grades it ${repeat} more time(s)`,
      judgeRun: null,
      judging: { repeat },
    };
  }
  if ((listed && !candidateFailed) || (scope.rejudge === "failed" && judgeFailed)) {
    return {
      ...decision,
      action: "judge",
      reason: `Explicit rejudge of ${evalRunId}`,
      judgeRun: null,
      ...(listed ? { judging: "fresh" as const } : {}),
    };
  }
  return null;
}

export function describeSlot(slot: SlotKey): string {
  return `${slot.evalId}${slot.case === undefined ? "" : ` (case ${slot.case})`} × ${candidateName(slot)} #${slot.repetition}`;
}
