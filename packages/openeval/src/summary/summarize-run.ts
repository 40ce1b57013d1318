// A run's summary: the plan re-made over what is recorded now, so that every slot counts exactly once with its
// active judgment (or as unresolved); then equal-weight scores, statistics, gates and the verdict. Controls are
// scored and shown, but never enter the verdict: they calibrate judges, they are not results.
import { join } from "node:path";
import {
  agreementSettingsOf,
  CURRENT_VARIANT_NAME,
  DEFAULT_ENGINE_NAME,
  severityOf,
  type BenchmarkDefinition,
  type IntegritySettings,
  type EvalDefinition,
} from "../load/index.ts";
import {
  describeSlot,
  planSlots,
  scoredCriteria,
  type CandidateRuntime,
  type PlannedSlot,
  type PlanScope,
} from "../plan/index.ts";
import { isPriced, unpricedReason } from "../util/model-pricing.ts";
import {
  candidateName,
  creditsOf,
  describeFinding,
  readReviews,
  toCandidateRef,
  toSlotKey,
  type EvalRun,
  type JudgeRun,
  type ResultsStore,
} from "../records/index.ts";
import {
  aggregateScores,
  compareModels,
  compareSummaries,
  costAndTimeByModel,
  decideVerdict,
  readBaseline,
  BASELINE_FILE,
  resolveGate,
  scoreCategories,
  scoreIntervals,
  summarizePassK,
  type ModelSummary,
  type CriterionRef,
  type GateSelection,
  type SlotFingerprint,
  type SlotObservation,
  readVerdictSettings,
  verdictSettingsOf,
  type VerdictSettings,
  judgingOf,
  judgeAgreement,
} from "../results/index.ts";
import type { RunSummary, SlotIntegrityFindings } from "./events.ts";
import { isControlModel } from "../util/control-model.ts";
import { recordedInputChanges, recordedInputProblems } from "./input-changes.ts";
import { readCheckedRecords, type CheckedRecords } from "./checked-records.ts";
import { LatestReviews } from "./apply-reviews.ts";
import { readInvariantStandings } from "./invariant-standings.ts";
import { planAdaptively } from "./adaptive-rounds.ts";

export interface SummaryOptions {
  /** Eval runs executed by this invocation: only they count as live latency measurements. */
  fresh?: ReadonlySet<string>;
  /** CLI contributor selection (--gate, --only, --no-llm-judge). */
  selection?: Omit<GateSelection, "configured">;
  /** The verification image of verification-using evals, as planned (see run/verification.ts). */
  verificationImage?: (evalId: string) => string | null;
  /** Where each model's candidates run, as planned (see run/candidate-isolation.ts). */
  candidateRuntime?: (model: string, evaluation: EvalDefinition) => CandidateRuntime;
  /**
   * `current` (a run deciding its verdict now, which records them first): today's benchmark.ts and command line.
   * `recorded` (readResults, the viewer): the settings recorded with the run; a selection given here overrides the
   * recorded one. Default `current`.
   */
  settings?: "current" | "recorded";
  /** The run's checked records when the caller has just read them from `store` (one read of a large run, not two). */
  records?: CheckedRecords;
}

export async function summarizeRun(
  benchmark: BenchmarkDefinition,
  store: ResultsStore,
  scope: PlanScope,
  runId: string,
  options: SummaryOptions = {},
): Promise<RunSummary> {
  // Same limits as the run, so deferrals keep their reasons; explicit retry/rejudge requests are spent.
  const records = options.records ?? readCheckedRecords(store);
  const { plan, adaptive } = await planAdaptively(
    benchmark,
    records,
    { ...scope, fresh: false, retry: [], rejudge: [], explicitOnly: false },
    options.verificationImage,
    options.candidateRuntime,
  );
  const outOfScope = plan.slots.filter((slot) => slot.deferredBy === "scope").length;
  // Repetitions a decided comparison no longer needs are not part of the run's results: not missing, not unresolved.
  const inScope = plan.slots.filter((slot) => slot.deferredBy !== "scope" && slot.deferredBy !== "decided");
  // People's reviews decide the criteria they review (apply-reviews.ts); one that fails its check is reported, not used.
  const { reviews, problems: reviewProblems } = readReviews(store);
  const latestReviews = new LatestReviews(reviews);
  const observations = inScope.map((slot) => observe(slot, options.fresh, latestReviews));
  const criteria = criteriaOf(benchmark, observations, scope);
  const criterionIds = Object.fromEntries(
    Object.entries(criteria).map(([evalId, refs]) => [evalId, refs.map((ref) => ref.id)]),
  );

  // Only current blocks, and the variants named with --variant; controls never do.
  const blocking = (observation: SlotObservation) =>
    observation.variant === CURRENT_VARIANT_NAME || (scope.variants?.includes(observation.variant) ?? false);
  const real = observations.filter((observation) => !isControlModel(observation.model) && blocking(observation));
  const { settings, note: settingsNote } = chooseVerdictSettings(benchmark, store, options);
  const enabled = resolveGate({ configured: settings.configured ?? undefined, ...settings.selection });
  const fingerprints = fingerprintsOf(inScope);
  const agreementSettings = agreementSettingsOf(settings);
  const agreement = judgeAgreement(
    inScope.flatMap((slot) =>
      slot.action === "reuse" && slot.judgeRun?.panel ? [{ evalId: slot.evalId, judgments: slot.judgeRun.panel }] : [],
    ),
    agreementSettings,
  );
  const invariants = readInvariantStandings(store, settings.invariants);
  const verdict = decideVerdict({
    observations: real,
    criteria,
    judges: Object.fromEntries(benchmark.evals.map((evaluation) => [evaluation.id, judgesOf(evaluation)])),
    gates: settings.gates ?? undefined,
    integrity: settings.integrity ?? undefined,
    baseline: await readBaseline(join(benchmark.directory, BASELINE_FILE)),
    fingerprints,
    enabled,
    unreliable: agreement.filter((criterion) => criterion.unreliable),
    strict: agreementSettings.strict,
    invariants: invariants.verdict,
  });

  const intervals = scoreIntervals(observations, criterionIds, { seed: 1 });
  // With adaptive repetitions, only min is run for every slot.
  const passK = summarizePassK(observations, criterionIds, adaptive?.min ?? benchmark.settings.repetitions);
  const costTime = costAndTimeByModel(observations);
  const realModels = [
    ...new Set(
      real
        .filter((observation) => observation.variant === CURRENT_VARIANT_NAME)
        .map((observation) => observation.model),
    ),
  ];
  const summaries = aggregateScores(observations, criterionIds);
  // A summary plans without retry or rejudge: "failed" is exactly a failed candidate or judgment (plan-benchmark.ts decide).
  // Besides the records' own checks: frozen inputs found tampered with before they were used.
  const integrity = [...records.integrity, ...recordedInputProblems(store), ...reviewProblems, ...invariants.problems];
  const failedByCandidate = new Map(
    [
      ...Map.groupBy(
        inScope.filter((slot) => slot.action === "failed"),
        candidateName,
      ),
    ].map(([candidate, slots]) => [candidate, slots.length]),
  );
  return {
    runId,
    directory: store.directory,
    models: summaries.map((summary) => ({
      ...summary,
      control: isControlModel(summary.model),
      unsandboxed:
        !isControlModel(summary.model) &&
        inScope.some(
          (slot) =>
            slot.model === summary.model && slot.evalRun !== null && slot.evalRun.input.isolation !== "container",
        ),
      failed: failedByCandidate.get(candidateName(summary)) ?? 0,
      interval: intervals.find((entry) => sameCandidate(entry, summary))!,
      passK: passK.find((entry) => sameCandidate(entry, summary)) ?? null,
      costTime: costTime.find((entry) => sameCandidate(entry, summary))!,
    })),
    comparisons: realModels.slice(1).map((other) => compareModels(summaries, realModels[0]!, other, { seed: 1 })),
    variantComparisons: compareVariants(summaries),
    verdict,
    fingerprints,
    // A run with records that fail their integrity check has no trustworthy verdict. Cases left out by --only-case
    // leave their evals' scores partial: the run is incomplete until they are run.
    complete:
      inScope.every((slot) => slot.action === "reuse") &&
      integrity.length === 0 &&
      !(scope.onlyCases && outOfScope > 0),
    open: inScope
      .filter((slot) => slot.action !== "reuse")
      .map((slot) => ({
        slot: toSlotKey(slot),
        action: slot.action,
        reason: slot.reason,
        evalRunId: (slot.evalRun ?? slot.interruptedRun)?.id ?? null,
      })),
    outOfScope,
    criteria: criterionIds,
    categories: scoreCategories(observations, criterionIds, categoriesOf(benchmark, criterionIds), { seed: 1 }),
    inputChanges: recordedInputChanges(store),
    integrity,
    integrityFindings: slotFindings(inScope, settings.integrity ?? undefined),
    agreement,
    reviews: latestReviews.standings(
      inScope.flatMap((slot) => (slot.action === "reuse" && slot.judgeRun ? [slot.judgeRun] : [])),
    ),
    invariants: invariants.reports,
    warnings: warningsOf(benchmark, inScope),
    settingsNote,
    engines: engineCounts(records.evalRuns),
    adaptive,
  };
}

/** The active judgments' integrity findings, each with the severity benchmark.ts gives its kind. */
function slotFindings(
  slots: readonly PlannedSlot<EvalRun, JudgeRun>[],
  settings: IntegritySettings | undefined,
): SlotIntegrityFindings[] {
  return slots.flatMap((slot) => {
    const findings = slot.action === "reuse" ? (slot.judgeRun?.integrityFindings ?? []) : [];
    if (findings.length === 0 || !slot.evalRun || !slot.judgeRun) return [];
    return [
      {
        slot: toSlotKey(slot),
        control: isControlModel(slot.model),
        evalRunId: slot.evalRun.id,
        judgeRunId: slot.judgeRun.id,
        findings: findings.map((finding) => ({ ...finding, severity: severityOf(finding.kind, settings) })),
      },
    ];
  });
}

/** Eval runs per engine of a pool (those the engine cut short apart); empty when every run used the one engine. */
function engineCounts(evalRuns: readonly EvalRun[]): NonNullable<RunSummary["engines"]> {
  const byEngine = Map.groupBy(
    evalRuns.filter((evalRun) => evalRun.input.engine !== undefined),
    (evalRun) => evalRun.input.engine!,
  );
  if ([...byEngine.keys()].every((name) => name === DEFAULT_ENGINE_NAME)) return [];
  return [...byEngine]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, runs]) => ({
      name,
      evalRuns: runs.length,
      interrupted: runs.filter((evalRun) => evalRun.state === "interrupted").length,
    }));
}

function sameCandidate(a: { model: string; variant?: string }, b: { model: string; variant?: string }): boolean {
  return candidateName(a) === candidateName(b);
}

/** Each variant's row against its model's current row (compareSummaries: b − a, so variant − current). */
function compareVariants(summaries: readonly ModelSummary[]): RunSummary["variantComparisons"] {
  return summaries.flatMap((summary) => {
    const current =
      summary.variant === undefined
        ? undefined
        : summaries.find((other) => other.model === summary.model && other.variant === undefined);
    return current && summary.variant
      ? [{ model: summary.model, variant: summary.variant, comparison: compareSummaries(current, summary) }]
      : [];
  });
}

/** More compactions than this in one eval run is worth a warning: the model's context is likely too small for the task. */
export const COMPACTION_WARNING = 3;

function warningsOf(benchmark: BenchmarkDefinition, slots: readonly PlannedSlot<EvalRun, JudgeRun>[]): string[] {
  const compacted = slots.flatMap((slot) => {
    const count = slot.evalRun?.metrics?.compactions ?? 0;
    if (count <= COMPACTION_WARNING) return [];
    return [
      `${describeSlot(slot)} [eval run ${slot.evalRun!.id}] compacted its context ${count} times: the model's context is likely too small for this eval (raise it, or set limit.context to what the server allows)`,
    ];
  });
  const toolCallText = slots.flatMap((slot) => {
    const finding = slot.evalRun?.findings?.find((each) => each.kind === "tool_call_text");
    return finding ? [`${describeSlot(slot)} [eval run ${slot.evalRun!.id}] ${describeFinding(finding)}`] : [];
  });
  const unpriced = [...new Set(slots.filter((slot) => slot.evalRun !== null).map((slot) => slot.model))]
    .filter((model) => !isPriced(model, benchmark.settings.candidate.providers))
    .map(unpricedReason);
  return [...compacted, ...toolCallText, ...unpriced];
}

/** The verdict's settings, recorded with the run when it decides now; the recorded ones when it is read back. */
function chooseVerdictSettings(
  benchmark: BenchmarkDefinition,
  store: ResultsStore,
  options: SummaryOptions,
): { settings: VerdictSettings; note: string | null } {
  const current = verdictSettingsOf(benchmark.settings, options.selection);
  if (options.settings !== "recorded") return { settings: current, note: null };
  const recorded = readVerdictSettings(store);
  if (recorded === null) {
    return {
      settings: current,
      note: "this run recorded no verdict settings (it predates them): it is judged by today's benchmark.ts",
    };
  }
  const settings = options.selection ? { ...recorded, selection: current.selection } : recorded;
  if (recorded.fingerprint === current.fingerprint) return { settings, note: null };
  return {
    settings,
    note: `${benchmark.directory}/benchmark.ts has changed since this run (gates, thresholds, verdict selection, or the judge/candidate settings): the verdict uses the settings recorded with the run`,
  };
}

function observe(
  slot: PlannedSlot<EvalRun, JudgeRun>,
  fresh: ReadonlySet<string> | undefined,
  reviews: LatestReviews,
): SlotObservation {
  // An execution the runner stopped is not judged, but its spend and time are recorded: they count as executed.
  const executed = slot.evalRun ?? slot.interruptedRun ?? null;
  const judged = slot.action === "reuse" ? reviews.apply(slot.judgeRun) : null;
  // apply() returns the judge run itself when no review touches it: only a reviewed one is looked through.
  const reviewed =
    judged === slot.judgeRun
      ? []
      : Object.entries(judged?.scores ?? {}).flatMap(([id, score]) => (score.review ? [id] : []));
  return {
    ...toSlotKey(slot),
    scores: creditsOf(judged),
    ...(reviewed.length > 0 ? { reviewed } : {}),
    costUSD: executed?.metrics?.cost.usd ?? null,
    elapsedMs: executed?.elapsedMs ?? null,
    modelActiveMs: executed?.metrics?.timing.modelActiveMs ?? null,
    ...judgingOf(executed, slot.judgeRun),
    ...(slot.action === "reuse" && slot.judgeRun?.integrityFindings
      ? { integrityFindings: slot.judgeRun.integrityFindings }
      : {}),
    executed: executed !== null,
    fresh: slot.evalRun !== null && (fresh?.has(slot.evalRun.id) ?? false),
  };
}

/**
 * Declared criteria, plus any a judge.ts returned without declaring them (judge.ts is its only possible source) —
 * unless categories choose the criteria (benchmark.ts `categories`, --only-category): an undeclared one has none.
 */
function judgesOf(evaluation: BenchmarkDefinition["evals"][number]): CriterionRef["source"][] {
  return [
    ...(evaluation.code ? ["judge.ts" as const] : []),
    ...(evaluation.harbor ? ["tests/test.sh" as const] : []),
    ...(evaluation.rubric ? ["judge.md" as const] : []),
  ];
}

function criteriaOf(
  benchmark: BenchmarkDefinition,
  observations: readonly SlotObservation[],
  scope: PlanScope,
): Record<string, CriterionRef[]> {
  const criteria: Record<string, CriterionRef[]> = {};
  const byEval = Map.groupBy(observations, (observation) => observation.evalId);
  for (const evaluation of benchmark.evals) {
    const refs: CriterionRef[] = scoredCriteria(evaluation, scope).map((criterion) => ({
      id: criterion.id,
      source: criterion.source,
    }));
    if (benchmark.categories !== null || scope.onlyCategories) {
      if (refs.length > 0) criteria[evaluation.id] = refs;
      continue;
    }
    const seen = (byEval.get(evaluation.id) ?? []).flatMap((observation) => Object.keys(observation.scores ?? {}));
    // Criteria learned from judgments: a Harbor task's verifier names its own (reward.txt's, or reward.json's keys).
    const learned = evaluation.harbor && !evaluation.code ? "tests/test.sh" : "judge.ts";
    for (const id of new Set(seen)) if (!refs.some((ref) => ref.id === id)) refs.push({ id, source: learned });
    criteria[evaluation.id] = refs;
  }
  return criteria;
}

/**
 * Eval id → criterion id → its category keys, for the criteria that have any. A Harbor task's category (task.toml
 * metadata) is that of every criterion its verifier scored.
 */
function categoriesOf(
  benchmark: BenchmarkDefinition,
  scored: Readonly<Record<string, readonly string[]>>,
): Record<string, Record<string, string[]>> {
  return Object.fromEntries(
    benchmark.evals.map((evaluation) => [
      evaluation.id,
      Object.fromEntries([
        ...(evaluation.harbor?.categories.length
          ? (scored[evaluation.id] ?? []).map((id) => [id, evaluation.harbor!.categories] as const)
          : []),
        ...evaluation.criteria
          .filter((criterion) => criterion.categories.length > 0)
          .map((criterion) => [criterion.id, criterion.categories] as const),
      ]),
    ]),
  );
}

function fingerprintsOf(slots: readonly PlannedSlot[]): SlotFingerprint[] {
  return slots.map((slot) => ({
    evalId: slot.evalId,
    ...toCandidateRef(slot),
    candidateFingerprint: slot.candidateFingerprint,
    judgeFingerprint: slot.judgeRun?.judgeFingerprint ?? null,
  }));
}
