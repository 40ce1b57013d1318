// The leaderboard summary a runner records at its end: the parts of readResults' summary the viewer's
// first leaderboard shows, made as readResults makes them, under a key that changes whenever readResults could give a
// different answer — so that the viewer serves it without re-planning and bootstrapping a large run, and computes
// when it no longer holds. What the key covers, and what it trusts: docs/design/evidence-trust.md.
import { resolve } from "node:path";
import * as z from "zod";
import { ISOLATION_BACKENDS, loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import {
  INVOCATION_FINISHED,
  INVOCATION_STARTED,
  ResultsStore,
  type IntegrityProblem,
  type StoreMarks,
} from "../records/index.ts";
import type { CategoryScore, Verdict } from "../results/index.ts";
import { fingerprint, sha256 } from "../util/hash.ts";
import { HARNESS_VERSION } from "../util/versions.ts";
import { benchmarkVersion } from "./benchmark-version.ts";
import { readCheckedRecords, readCheckedRecordsSince, type CheckedRecords } from "./checked-records.ts";
import type { ModelResult, RunSummary } from "./events.ts";
import { summarizeRecordedRun } from "./read-results.ts";

export const SUMMARY_RECORDED_EVENT = "summary.recorded";
/** Bump when LeaderboardSummary or the key's ingredients change: a summary recorded by the same harness version in an older shape is never matched. */
const FORMAT = 8;
/** Events that never change what readResults says: the runner's invocation log, and these summaries themselves. Any other type counts. */
const UNCOUNTED_EVENTS = [INVOCATION_STARTED, INVOCATION_FINISHED, SUMMARY_RECORDED_EVENT];

/**
 * What the viewer's leaderboard takes from a RunSummary (view/run-summary.ts): not its per-slot fingerprints and
 * open work, nor each model's per-eval scores, which are ~20 MB at 100,000 slots.
 */
export interface LeaderboardSummary {
  verdict: Verdict;
  complete: boolean;
  settingsNote: string | null;
  /** Per candidate (model, variant): its score, the CI computed with it, and its counts, spend and time. */
  models: Omit<ModelResult, "evals" | "passK">[];
  variantComparisons: RunSummary["variantComparisons"];
  categories: CategoryScore[];
  criteria: RunSummary["criteria"];
  integrity: IntegrityProblem[];
  integrityFindings: NonNullable<RunSummary["integrityFindings"]>;
  agreement: NonNullable<RunSummary["agreement"]>;
  /** Each declared invariant with its recorded standing; [] when none is declared. */
  invariants: NonNullable<RunSummary["invariants"]>;
}

/** How many eval and judge runs (less those failing their check) a run holds, and how many of them are finished. */
export interface RowCounts {
  evalRuns: number;
  finishedEvalRuns: number;
  judgeRuns: number;
  finishedJudgeRuns: number;
  /** People's reviews that check out (they decide scores). */
  reviews: number;
}

export interface RecordedLeaderboard {
  summary: LeaderboardSummary;
  /** When the runner recorded it (ISO time). */
  recordedAt: string;
  /** The rows it was made from: they stand while its key holds, so a reader counts no row. */
  rows: RowCounts;
}

/**
 * The key's basis, kept with the summary so that checking the key reads no row and loads no benchmark (a 2,500-eval
 * benchmark takes ~1.5 s to load, more than the first leaderboard's budget). From the rows: which models, which
 * --isolation their eval runs recorded, which rows were running — it holds while the store's marks, triggers and
 * events do, which the key checks. The image ids the fingerprints use are the run's recorded ones (an event the key
 * digests), so checking the key asks no engine either.
 */
const BasisSchema = z.object({
  models: z.array(z.string()),
  isolation: z.enum(ISOLATION_BACKENDS).nullable(),
  running: z.object({
    evalRuns: z.array(z.string()),
    judgeRuns: z.array(z.object({ id: z.string(), evalRunId: z.string() })),
  }),
});
type SummaryBasis = z.infer<typeof BasisSchema>;

/** The envelope is parsed; the summary inside is trusted once its key matches (the same harness and FORMAT wrote it). */
const RecordedSummarySchema = z.object({
  key: z.string(),
  recordedAt: z.string(),
  basis: BasisSchema,
  summary: z.custom<LeaderboardSummary>((value) => typeof value === "object" && value !== null),
  rows: z.object({
    evalRuns: z.number(),
    finishedEvalRuns: z.number(),
    judgeRuns: z.number(),
    finishedJudgeRuns: z.number(),
    reviews: z.number(),
  }),
});

export function toLeaderboardSummary(summary: RunSummary): LeaderboardSummary {
  return {
    verdict: summary.verdict,
    complete: summary.complete,
    settingsNote: summary.settingsNote,
    models: summary.models.map(({ evals: _evals, passK: _passK, ...model }) => model),
    variantComparisons: summary.variantComparisons,
    categories: summary.categories,
    criteria: summary.criteria,
    integrity: summary.integrity,
    integrityFindings: summary.integrityFindings ?? [],
    agreement: summary.agreement ?? [],
    invariants: summary.invariants ?? [],
  };
}

export interface RecordSummaryOptions {
  /** The run's checked records as the caller read them from the store (the runner's); rows added since are read on top. */
  records?: CheckedRecords;
  /**
   * The run's benchmark as the caller loaded it after stamping its folder `stamp` (the runner, at its start): used
   * while the folder's stamp is still that — the viewer keeps one loaded benchmark per stamp too — else loaded again.
   */
  loaded?: { benchmark: BenchmarkDefinition; stamp: string };
}

/**
 * Appends the run's leaderboard summary as readResults would give it now, against the benchmark folder the run records
 * as it is now (stamped, then loaded: a runner's copy from its start is used only if no file has changed since).
 * @example await recordSummary(store) // later, elsewhere: readRecordedSummary(store.directory, benchmarkVersion(folder))
 */
export async function recordSummary(store: ResultsStore, options: RecordSummaryOptions = {}): Promise<void> {
  const folder = store.readRun().benchmarkDirectory;
  // Everything the key covers is read before the summary is made from it: a change meanwhile leaves a key that no
  // longer matches (the viewer computes), never a summary older than its key.
  const stamp = benchmarkVersion(folder);
  const unfinished = store.unfinished();
  const running = {
    evalRuns: unfinished.evalRuns.map((run) => run.id),
    judgeRuns: unfinished.judgeRuns.map((run) => ({ id: run.id, evalRunId: run.evalRunId })),
  };
  const state = readStoreState(store, running);
  const records = options.records ? readCheckedRecordsSince(store, options.records) : readCheckedRecords(store);
  const { loaded } = options;
  const benchmark =
    loaded && loaded.stamp === stamp && loaded.benchmark.directory === resolve(folder)
      ? loaded.benchmark
      : await loadBenchmark(folder);
  const { summary, basis } = await summarizeRecordedRun(store, benchmark, { records });
  const kept: SummaryBasis = { ...basis, running };
  const finished = (rows: readonly { state: string }[]) => rows.filter((row) => row.state !== "running").length;
  const rows: RowCounts = {
    evalRuns: records.evalRuns.length,
    finishedEvalRuns: finished(records.evalRuns),
    judgeRuns: records.judgeRuns.length,
    finishedJudgeRuns: finished(records.judgeRuns),
    reviews: summary.reviews?.length ?? 0,
  };
  const recorded: z.infer<typeof RecordedSummarySchema> = {
    key: keyOf(benchmark.directory, stamp, kept, state),
    recordedAt: new Date().toISOString(),
    basis: kept,
    summary: toLeaderboardSummary(summary),
    rows,
  };
  store.appendEvent(SUMMARY_RECORDED_EVENT, recorded);
}

/**
 * The leaderboard summary recorded in the run, when its key matches the run as it is now and its benchmark folder as
 * stamped `stamp` (benchmarkVersion of the folder the run records); else null (none recorded, or it no longer holds:
 * make it with readResults).
 * @example const recorded = await readRecordedSummary(runDirectory, benchmarkVersion(run.benchmarkDirectory));
 */
export async function readRecordedSummary(runDirectory: string, stamp: string): Promise<RecordedLeaderboard | null> {
  const store = ResultsStore.open(resolve(runDirectory), { readonly: true });
  try {
    const parsed = RecordedSummarySchema.safeParse(store.latestEvent(SUMMARY_RECORDED_EVENT));
    if (!parsed.success) return null;
    const { key, basis, summary, recordedAt, rows } = parsed.data;
    const state = readStoreState(store, basis.running);
    return keyOf(resolve(store.readRun().benchmarkDirectory), stamp, basis, state) === key
      ? { summary, recordedAt, rows }
      : null;
  } finally {
    store.close();
  }
}

/** What the key takes from the store, without parsing a row (the viewer checks it on every first leaderboard). */
interface StoreState {
  /** The last rowid of each table: a row added moves it (rows are never deleted while the triggers stand). */
  marks: StoreMarks;
  /** The triggers that keep finalized rows as they are: dropping one is how a sealed row gets edited. */
  immutable: boolean;
  /** Of the rows running when the summary was recorded, those running now: one finalized since leaves this list. */
  running: SummaryBasis["running"];
  /** Every counted event (add-models, remove-models, verdict settings, input changes, merged runs, any new type). */
  events: string;
}

function readStoreState(store: ResultsStore, running: SummaryBasis["running"]): StoreState {
  const events = store
    .eventTextsExcept(UNCOUNTED_EVENTS)
    .map((event) => `${event.sequence}\t${event.type}\t${event.value}`);
  return {
    marks: store.marks(),
    immutable: store.immutable(),
    // A row finalized cannot run again (the triggers refuse): only those running then need a look.
    running: {
      evalRuns: running.evalRuns.filter((id) => store.evalRun(id)?.state === "running"),
      judgeRuns: running.judgeRuns.filter((entry) =>
        store.judgeRuns(entry.evalRunId).some((run) => run.id === entry.id && run.state === "running"),
      ),
    },
    events: sha256(events.join("\n")),
  };
}

function keyOf(directory: string, stamp: string, basis: SummaryBasis, store: StoreState): string {
  // Canonical JSON: the basis is compared as recorded and as parsed back, whose key order may differ.
  return fingerprint({ format: FORMAT, harness: HARNESS_VERSION, benchmark: { directory, stamp }, basis, store });
}
