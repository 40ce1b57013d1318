// One run's records held in memory for the API: read from the results store in one pass, aggregated once, and
// re-read only when the store's files change (see store-version.ts). Pages are cut from here without touching disk.
import { basename } from "node:path";
import {
  candidateName,
  cellId,
  readInvocations,
  readReviews,
  RecordedWorkIndex,
  ResultsStore,
  type Invocation,
  type BenchmarkRun,
  type IntegrityProblem,
} from "../records/index.ts";
import {
  aggregateScores,
  measureCostAndTime,
  type CaseSummary,
  type CostAndTime,
  type ModelSummary,
} from "../results/index.ts";
import type { IntegritySettings } from "../load/index.ts";
import type { CaseCell, EvalRunRow, LeaderboardRow, MatrixRow, RunListItem, RunOverview } from "./api-types.ts";
import { flagFindings, mergeFlags, readIntegritySettings } from "./integrity-findings.ts";
import { toSlotCell } from "./slot-cell.ts";
import { isLive } from "./store-version.ts";
import { isControlModel } from "../util/control-model.ts";
import { collectAfterLargeRead } from "../util/collect-garbage.ts";
import {
  INDEXED,
  LatestReviews,
  readCheckedRecords,
  recordedSlots,
  type IndexedEvalRun,
  type IndexedJudgeRun,
  type RecordedSlot,
  type RowCounts,
} from "../summary/index.ts";
import { IndexedEvalRunRow } from "./eval-run-row.ts";

export interface RunIndex {
  directory: string;
  /** Changes exactly when the run's content (or whether it is live) changes. */
  version: string;
  heartbeat: { at: number } | null;
  run: BenchmarkRun;
  /** What each runner invocation recorded (its planned work, --max-cost, end): the live queue reads it. */
  invocations: Invocation[];
  /** What the index keeps of each record (summary/indexed-runs.ts); a page that shows a record whole reads it from the store. */
  evalRuns: ReadonlyMap<string, IndexedEvalRun>;
  judgeRuns: ReadonlyMap<string, IndexedJudgeRun>;
  judgeRunsByEvalRun: ReadonlyMap<string, readonly IndexedJudgeRun[]>;
  /** Every slot with its active work, as the results stage's statistics take it. */
  slots: readonly RecordedSlot[];
  /** Every eval run, in the order they started. */
  rows: EvalRunRow[];
  /** The same rows by eval run id. */
  rowsById: ReadonlyMap<string, EvalRunRow>;
  overview: RunOverview;
  /** What the matrix's rows are cut from, a page at a time (matrixRows): a whole matrix of 100,000 slots is ~30 MB. */
  matrix: MatrixSource;
  /** benchmark.ts `integrity` as recorded with the run: the severity of each integrity finding (default when absent). */
  integritySettings: IntegritySettings | undefined;
}

export interface MatrixSource {
  /** The rows' evals, in order. */
  evals: readonly string[];
  /** The columns' summaries, in leaderboard order. */
  columns: readonly ModelSummary[];
  /** Each column's eval scores by eval id. */
  scores: readonly ReadonlyMap<string, ModelSummary["evals"][number]>[];
  /** cellId → the cell's slots. */
  slotsByCell: ReadonlyMap<string, readonly RecordedSlot[]>;
  /** An eval with cases → its case ids, in the order they were first recorded. */
  casesByEval: ReadonlyMap<string, readonly string[]>;
}

export function readRunIndex(directory: string): RunIndex {
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    // Judge runs that fail their integrity check are shown as problems, never as judgments.
    const records = readCheckedRecords(store, INDEXED);
    // The read's garbage (every row parsed and checked whole) would otherwise stack on the build's: ~50 MiB of the
    // peak of an index of 100,000 eval runs (~0.1 s).
    collectAfterLargeRead(records.evalRuns.length);
    const heartbeat = store.heartbeat();
    // The planned work is read only for a live run's queue (see readQueue).
    const invocations = readInvocations(store, { work: isLive(heartbeat) });
    // The run's models as add-models and remove-models left them (its record keeps the list it was created with).
    return buildRunIndex(
      directory,
      { ...store.readRun(), models: records.runModels.active },
      records.evalRuns,
      records.judgeRuns,
      heartbeat,
      records.integrity,
      invocations,
      readIntegritySettings(store),
      new LatestReviews(readReviews(store).reviews),
    );
  } finally {
    store.close();
  }
}

export function buildRunIndex(
  directory: string,
  run: BenchmarkRun,
  evalRuns: IndexedEvalRun[],
  judgeRuns: IndexedJudgeRun[],
  heartbeat: { at: number } | null,
  integrity: IntegrityProblem[] = [],
  invocations: Invocation[] = [],
  integritySettings?: IntegritySettings,
  reviews: LatestReviews = new LatestReviews([]),
): RunIndex {
  const live = isLive(heartbeat);
  const finished = (records: readonly { state: string }[]) => count(records, (record) => record.state !== "running");
  const rowCounts = {
    evalRuns: evalRuns.length,
    finishedEvalRuns: finished(evalRuns),
    judgeRuns: judgeRuns.length,
    finishedJudgeRuns: finished(judgeRuns),
    reviews: reviews.size,
  };
  const version = runVersion(rowCounts, integrity.length, invocations, live);
  const recorded = new RecordedWorkIndex(evalRuns, judgeRuns);
  const judgeRunsByEvalRun = recorded.judgeRunsByEvalRun;
  const slots = recordedSlots(run, evalRuns, recorded, reviews);
  const active = new Map<string, RecordedSlot>();
  for (const slot of slots) if (slot.evalRun) active.set(slot.evalRun.id, slot);
  const rows = evalRuns.map((evalRun) => {
    const slot = active.get(evalRun.id);
    // An inactive (superseded) eval run still shows its own latest judgment.
    return new IndexedEvalRunRow(
      evalRun,
      slot?.judgeRun ?? judgeRunsByEvalRun.get(evalRun.id)?.at(-1) ?? null,
      slot !== undefined,
    );
  });
  const criteria = criteriaByEval(slots);
  // The slots' and rows' making leaves the work index's grouping and each slot's lookups behind; collected before the
  // aggregation adds its own garbage, so the two never add up to the peak.
  collectAfterLargeRead(evalRuns.length);
  const models = aggregateScores(slots, criteria);
  const bySlotModel = Map.groupBy(slots, candidateName);
  // Grouped here in one pass: costAndTimeByModel's grouping is quadratic in the slots per model.
  const spend = new Map([...bySlotModel].map(([candidate, mine]) => [candidate, measureCostAndTime(mine)]));
  const counts = {
    slots: slots.length,
    evalRuns: evalRuns.length,
    judgeRuns: judgeRuns.length,
    judged: count(slots, (slot) => slot.scores !== null),
    running:
      count(evalRuns, (evalRun) => evalRun.state === "running") +
      count(judgeRuns, (judgeRun) => judgeRun.state === "running"),
    failed: count(slots, (slot) => slot.failed),
  };
  return {
    directory,
    version,
    heartbeat,
    run,
    invocations,
    evalRuns: byId(evalRuns),
    judgeRuns: byId(judgeRuns),
    judgeRunsByEvalRun,
    slots,
    rows,
    rowsById: byId(rows),
    overview: {
      run,
      version,
      live,
      complete: counts.judged === counts.slots,
      counts,
      leaderboard: models.map((summary) =>
        toLeaderboardRow(
          summary,
          bySlotModel.get(candidateName(summary)) ?? [],
          spend.get(candidateName(summary)) ?? null,
        ),
      ),
      verdict: null,
      verdictWords: null,
      verdictNote: "The verdict is read with benchmark.ts (gates, baseline) when the leaderboard is asked for.",
      criteria,
      integrity,
      variantComparisons: [],
      categories: [],
    },
    matrix: matrixSource(slots, models),
    integritySettings,
  };
}

/**
 * The run's version as the pages see it. Rows are only ever added or finalized (the store refuses other changes), so
 * these counts move exactly when what the viewer shows does — unlike the store's files, which a runner's heartbeat
 * touches every 2 s.
 */
export function runVersion(
  rows: RowCounts,
  integrityProblems: number,
  invocations: readonly Invocation[],
  live: boolean,
): string {
  const ended = invocations.filter((invocation) => invocation.finished !== null).length;
  return [
    rows.evalRuns,
    rows.finishedEvalRuns,
    rows.judgeRuns,
    rows.finishedJudgeRuns,
    rows.reviews,
    integrityProblems,
    invocations.length,
    ended,
    live ? "live" : "idle",
  ].join(".");
}

/** The matrix's columns: one per leaderboard row, named by its candidate. */
export function matrixCandidates(overview: RunOverview): string[] {
  return overview.leaderboard.map((row) => row.candidate);
}

/** Listed under its folder's name (the id the API takes), which is the run's id unless the folder was renamed. */
export function toRunListItem(index: RunIndex): RunListItem {
  const { run, overview } = index;
  return {
    ...describeRun(basename(index.directory), run, overview.live),
    counts: {
      slots: overview.counts.slots,
      evalRuns: overview.counts.evalRuns,
      judged: overview.counts.judged,
      complete: overview.complete,
    },
  };
}

/** A run as listed, from its record alone. */
export function describeRun(id: string, run: BenchmarkRun, live: boolean): RunListItem {
  return {
    id,
    name: run.name,
    createdAt: run.createdAt,
    models: run.models,
    variants: run.variants ?? [],
    evals: run.evals,
    repetitions: run.repetitions,
    counts: null,
    live,
  };
}

/** The run record and liveness without reading any eval run. */
export function readRunRecord(directory: string): RunListItem {
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    return describeRun(basename(directory), store.readRun(), isLive(store.heartbeat()));
  } finally {
    store.close();
  }
}

// Counted and mapped in loops: filter(…).length and new Map(items.map(…)) make an array or a pair per item, and the
// build's garbage is part of a 100,000-run viewer's peak.
function count<T>(items: readonly T[], matches: (item: T) => boolean): number {
  let matching = 0;
  for (const item of items) if (matches(item)) matching++;
  return matching;
}

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) map.set(item.id, item);
  return map;
}

/** Criterion ids per eval, in the order judgments first named them. */
function criteriaByEval(slots: readonly RecordedSlot[]): Record<string, string[]> {
  const criteria: Record<string, Set<string>> = {};
  for (const slot of slots) {
    const seen = (criteria[slot.evalId] ??= new Set());
    for (const id of Object.keys(slot.scores ?? slot.judgeRun?.scores ?? {})) seen.add(id);
  }
  return Object.fromEntries(Object.entries(criteria).map(([evalId, ids]) => [evalId, [...ids]]));
}

/** Score, bounds, cost and time come from the results stage; the CI and verdict are added by run-summary.ts. */
function toLeaderboardRow(
  summary: ModelSummary,
  slots: readonly RecordedSlot[],
  spend: CostAndTime | null,
): LeaderboardRow {
  return {
    model: summary.model,
    ...(summary.variant === undefined ? {} : { variant: summary.variant }),
    candidate: candidateName(summary),
    control: isControlModel(summary.model) || slots.some((slot) => slot.evalRun?.control === true),
    unsandboxed:
      !isControlModel(summary.model) &&
      slots.some(
        (slot) => slot.evalRun !== null && !slot.evalRun.control && slot.evalRun.input.isolation !== "container",
      ),
    score: summary.score,
    ci: null,
    ciNote: null,
    verdict: null,
    slots: summary.slots,
    judged: summary.judged,
    failed: slots.filter((slot) => slot.failed).length,
    costUSD: spend?.totalUSD ?? null,
    judgeCostUSD: summary.judgeCostUSD,
    totalCostUSD: summary.totalCostUSD,
    meanCostUSD: spend?.meanUSD ?? null,
    unknownCost: spend?.unknownCost ?? 0,
    elapsedMs: summary.elapsedMs,
    medianElapsedMs: spend?.medianElapsedMs ?? null,
    p95ElapsedMs: spend?.p95ElapsedMs ?? null,
  };
}

function matrixSource(slots: readonly RecordedSlot[], models: readonly ModelSummary[]): MatrixSource {
  return {
    evals: [...new Set(slots.map((slot) => slot.evalId))],
    columns: models,
    scores: models.map((summary) => new Map(summary.evals.map((score) => [score.evalId, score]))),
    slotsByCell: Map.groupBy(slots, (slot) => cellId(slot.evalId, slot)),
    casesByEval: new Map(
      [
        ...Map.groupBy(
          slots.filter((slot) => slot.case !== undefined),
          (slot) => slot.evalId,
        ),
      ].map(([evalId, withCases]) => [evalId, [...new Set(withCases.map((slot) => slot.case!))]]),
    ),
  };
}

/**
 * The matrix's rows from `offset` on, at most `limit` of them (all by default). Integrity flags are counted here, for
 * the rows asked for, from the findings the index's judge runs keep.
 */
export function matrixRows(index: RunIndex, offset = 0, limit = Number.POSITIVE_INFINITY): MatrixRow[] {
  return index.matrix.evals.slice(offset, offset + limit).map((evalId) => matrixRow(index, evalId));
}

/** One eval's row, for the drill-down from an eval to its cases; null when the run has no slot of that eval. */
export function matrixRowOf(index: RunIndex, evalId: string): MatrixRow | null {
  return index.matrix.evals.includes(evalId) ? matrixRow(index, evalId) : null;
}

function matrixRow(index: RunIndex, evalId: string): MatrixRow {
  const { columns, scores, slotsByCell, casesByEval } = index.matrix;
  const cases = casesByEval.get(evalId);
  return {
    evalId,
    ...(cases === undefined ? {} : { cases: [...cases] }),
    cells: columns.map((summary, column) => {
      const score = scores[column]!.get(evalId) ?? { value: null, lower: 0, upper: 1 };
      const slots = (slotsByCell.get(cellId(evalId, summary)) ?? []).map((slot) => ({
        ...toSlotCell(slot),
        integrity: flagFindings(slot.integrityFindings, index.integritySettings),
      }));
      return {
        model: summary.model,
        ...(summary.variant === undefined ? {} : { variant: summary.variant }),
        candidate: candidateName(summary),
        score: { value: score.value, lower: score.lower, upper: score.upper },
        slots,
        integrity: mergeFlags(slots.map((slot) => slot.integrity)),
        ...(cases === undefined ? {} : { cases: caseCells(cases, "cases" in score ? score.cases : undefined) }),
      };
    }),
  };
}

/** Each case's score for one candidate, in the row's case order; a case it has no slot of is unresolved. */
function caseCells(cases: readonly string[], scored: readonly CaseSummary[] | undefined): CaseCell[] {
  const byCase = new Map((scored ?? []).map((summary) => [summary.caseId, summary]));
  return cases.map((caseId) => {
    const score = byCase.get(caseId) ?? { value: null, lower: 0, upper: 1 };
    return { caseId, score: { value: score.value, lower: score.lower, upper: score.upper } };
  });
}
