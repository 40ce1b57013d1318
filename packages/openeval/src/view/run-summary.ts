// The leaderboard's scores, statistics and verdict, exactly as the CLI reports them: readResults() over the run, which decides
// the verdict with the gates, thresholds and contributor selection recorded with the run and says when benchmark.ts
// has changed since. The runner records that summary at its end (summary/recorded-summary.ts): it is served while its key
// holds, and made again here otherwise. The benchmark is loaded again when any of its files (benchmark.ts, an eval's
// judge) changes; the summary is read or made once per version of the run and of benchmark.ts, when the leaderboard is
// first asked for. A run whose benchmark.ts is gone or no longer loads keeps its scores and gets its CIs from the same
// statistics, with a note instead of a verdict.
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { candidateName, readInvocations, readRunModels, ResultsStore } from "../records/index.ts";
import {
  describeVerdict,
  scoreIntervals,
  type Bounded,
  type ScoreInterval,
  type Verdict,
  type VerdictStatus,
  type VerdictWords,
} from "../results/index.ts";
import {
  benchmarkVersion,
  readRecordedSummary,
  readResults,
  toLeaderboardSummary,
  type LeaderboardSummary,
  type RecordedLeaderboard,
} from "../summary/index.ts";
import type { LeaderboardRow, RunOverview } from "./api-types.ts";
import { runVersion, type RunIndex } from "./run-index.ts";
import { isLive, readStoreVersion } from "./store-version.ts";

/** readResults() seeds its bootstrap with 1; so does the fallback, so the two agree. */
const SEED = 1;
/**
 * How long a benchmark folder's version stands before its files are stamped again. Stamping a 2,500-eval benchmark
 * (10,000 files) takes ~100 ms, and every leaderboard request asked for it (the slowest part of a large run's
 * leaderboard); an edit to benchmark.ts or a judge is seen within this time instead of on the very next request.
 */
export const BENCHMARK_RECHECK_MS = 1_000;
interface Summary {
  verdict: Verdict | null;
  words: VerdictWords | null;
  note: string | null;
  /** Per candidate: its score and the CI computed with it, from one summary (so they always belong together). */
  scores: Map<string, { interval: ScoreInterval; score: Bounded }>;
  variantComparisons: RunOverview["variantComparisons"];
  categories: RunOverview["categories"];
  agreement: NonNullable<RunOverview["agreement"]>;
  invariants: NonNullable<RunOverview["invariants"]>;
  /** When the runner recorded it; null when made here. */
  recordedAt: string | null;
}

export class SummaryReader {
  private readonly benchmarks = new Map<string, { version: string; benchmark: Promise<BenchmarkDefinition> }>();
  private readonly summaries = new Map<string, { version: string; summary: Promise<Summary> }>();
  private readonly stamps = new Map<string, { at: number; version: string }>();
  private readonly recorded = new Map<string, { version: string; overview: Promise<RunOverview | null> }>();

  /** `now`: the clock the benchmark versions are kept by (tests set it). */
  constructor(private readonly now: () => number = Date.now) {}

  /** The index's overview with CIs and the verdict (run-wide and per model) filled in. */
  async overview(index: RunIndex): Promise<RunOverview> {
    const { verdict, words, note, scores, variantComparisons, categories, agreement, invariants, recordedAt } =
      await this.read(index);
    const overview = index.overview;
    return {
      ...overview,
      variantComparisons,
      categories,
      agreement,
      invariants,
      verdict,
      verdictWords: words,
      verdictNote: note,
      summaryRecordedAt: recordedAt,
      leaderboard: overview.leaderboard.map((row) => {
        // The score and its CI are the summary's (the CLI's), not re-derived from the index.
        const summarized = scores.get(candidateName(row));
        return {
          ...row,
          ...(summarized ? { score: summarized.score } : {}),
          ci: summarized?.interval.interval ?? null,
          ciNote: summarized
            ? summarized.interval.reason
            : "not in the run's summary: benchmark.ts or remove-models no longer includes this candidate",
          // A variant is not part of the verdict the viewer reads (only current blocks unless --variant names one).
          verdict: verdict && !row.control && row.variant === undefined ? modelVerdict(verdict, row) : null,
        };
      }),
    };
  }

  /**
   * The overview of a finished run from the summary its runner recorded, while that summary's key holds: read without
   * an index of its eval runs (a 100,000-run index takes seconds). Its leaderboard is that summary's,
   * rows and all. Null for a live run, or when no recorded summary holds (ask overview() with the run's index).
   */
  recordedOverview(directory: string): Promise<RunOverview | null> {
    const store = ResultsStore.open(directory, { readonly: true });
    try {
      const heartbeat = store.heartbeat();
      if (isLive(heartbeat)) return Promise.resolve(null);
      const run = store.readRun();
      const version = `${readStoreVersion(directory)}:${this.benchmarkVersion(run.benchmarkDirectory)}`;
      const cached = this.recorded.get(directory);
      if (cached && cached.version === version) return cached.overview;
      // The run's models as add-models and remove-models left them, as its index has them.
      const base = { run: { ...run, models: readRunModels(store).active }, invocations: readInvocations(store) };
      // Its key is checked without loading the benchmark (~1.5 s for 2,500 evals): only making a summary needs it.
      const overview = readRecordedSummary(directory, this.benchmarkVersion(run.benchmarkDirectory))
        .then(
          (recorded) =>
            recorded &&
            overviewOf(
              base.run,
              runVersion(recorded.rows, recorded.summary.integrity.length, base.invocations, false),
              recorded,
            ),
        )
        .catch(() => null);
      this.recorded.set(directory, { version, overview });
      return overview;
    } finally {
      store.close();
    }
  }

  private read(index: RunIndex): Promise<Summary> {
    const version = `${index.version}:${this.benchmarkVersion(index.run.benchmarkDirectory)}`;
    const cached = this.summaries.get(index.directory);
    if (cached && cached.version === version) return cached.summary;
    const summary = this.summarize(index);
    this.summaries.set(index.directory, { version, summary });
    return summary;
  }

  /** The folder's version as stamped within the last BENCHMARK_RECHECK_MS, else stamped now. */
  private benchmarkVersion(folder: string): string {
    const stamp = this.stamps.get(folder);
    if (stamp && this.now() - stamp.at < BENCHMARK_RECHECK_MS) return stamp.version;
    const version = benchmarkVersion(folder);
    this.stamps.set(folder, { at: this.now(), version });
    return version;
  }

  /** The benchmark folder as stamped now, loaded once per stamp. */
  private loaded(folder: string): { stamp: string; benchmark: Promise<BenchmarkDefinition> } {
    const stamp = this.benchmarkVersion(folder);
    let cached = this.benchmarks.get(folder);
    if (!cached || cached.version !== stamp) {
      cached = { version: stamp, benchmark: loadBenchmark(folder) };
      this.benchmarks.set(folder, cached);
    }
    return { stamp, benchmark: cached.benchmark };
  }

  private async summarize(index: RunIndex): Promise<Summary> {
    const folder = index.run.benchmarkDirectory;
    // The runner's summary while it holds for this run and this version of the benchmark: checked without loading
    // the benchmark (~1.5 s for 2,500 evals), which only making the summary here needs.
    const fromRunner = await readRecordedSummary(index.directory, this.benchmarkVersion(folder)).catch(() => null);
    if (fromRunner) return toSummary(fromRunner.summary, fromRunner.recordedAt);
    const loaded = this.loaded(folder);
    try {
      return toSummary(
        toLeaderboardSummary(await readResults(index.directory, { benchmark: await loaded.benchmark })),
        null,
      );
    } catch (error) {
      // The index's own scores, and CIs from the same observations.
      const recorded = new Map(index.overview.leaderboard.map((row) => [candidateName(row), row.score]));
      const intervals = scoreIntervals(index.slots, index.overview.criteria, { seed: SEED });
      return {
        verdict: null,
        words: null,
        note: `No verdict: the run's benchmark (${folder}) could not be read: ${oneLine((error as Error).message)}`,
        scores: new Map(
          intervals.map((interval) => [
            candidateName(interval),
            { interval, score: recorded.get(candidateName(interval))! },
          ]),
        ),
        variantComparisons: [],
        // Criterion categories live in the benchmark's judge files, which could not be read.
        categories: [],
        agreement: [],
        invariants: [],
        recordedAt: null,
      };
    }
  }
}

function toSummary(summary: LeaderboardSummary, recordedAt: string | null): Summary {
  return {
    verdict: summary.verdict,
    words: describeVerdict(summary.verdict, summary.complete),
    note: summary.settingsNote,
    scores: new Map(
      summary.models.map((model) => [candidateName(model), { interval: model.interval, score: model.score }]),
    ),
    variantComparisons: summary.variantComparisons,
    categories: summary.categories,
    agreement: summary.agreement,
    invariants: summary.invariants,
    recordedAt,
  };
}

/**
 * A finished run's overview from its recorded summary alone: the leaderboard is the summary's rows, as the CLI reports
 * them; the counts are the summary's slots and the rows it was made from.
 */
function overviewOf(run: RunOverview["run"], version: string, recorded: RecordedLeaderboard): RunOverview {
  const { summary, rows } = recorded;
  const sum = (count: (model: LeaderboardSummary["models"][number]) => number) =>
    summary.models.reduce((total, model) => total + count(model), 0);
  const counts = {
    slots: sum((model) => model.slots),
    evalRuns: rows.evalRuns,
    judgeRuns: rows.judgeRuns,
    judged: sum((model) => model.judged),
    running: rows.evalRuns - rows.finishedEvalRuns + rows.judgeRuns - rows.finishedJudgeRuns,
    failed: sum((model) => model.failed),
  };
  return {
    run,
    version,
    live: false,
    complete: counts.judged === counts.slots,
    counts,
    leaderboard: summary.models.map((model) => {
      const row: LeaderboardRow = {
        model: model.model,
        ...(model.variant === undefined ? {} : { variant: model.variant }),
        candidate: candidateName(model),
        control: model.control,
        unsandboxed: model.unsandboxed,
        score: model.score,
        ci: model.interval.interval,
        ciNote: model.interval.reason,
        verdict: null,
        slots: model.slots,
        judged: model.judged,
        failed: model.failed,
        costUSD: model.costTime.totalUSD,
        judgeCostUSD: model.judgeCostUSD,
        totalCostUSD: model.totalCostUSD,
        meanCostUSD: model.costTime.meanUSD,
        unknownCost: model.costTime.unknownCost,
        elapsedMs: model.elapsedMs,
        medianElapsedMs: model.costTime.medianElapsedMs,
        p95ElapsedMs: model.costTime.p95ElapsedMs,
      };
      return { ...row, verdict: !row.control && row.variant === undefined ? modelVerdict(summary.verdict, row) : null };
    }),
    verdict: summary.verdict,
    verdictWords: describeVerdict(summary.verdict, summary.complete),
    verdictNote: summary.settingsNote,
    summaryRecordedAt: recorded.recordedAt,
    criteria: summary.criteria,
    integrity: summary.integrity,
    variantComparisons: summary.variantComparisons,
    categories: summary.categories,
    agreement: summary.agreement,
    invariants: summary.invariants,
  };
}

/**
 * The model's part in the verdict, worded as the run's verdict is: "fail" when a failing check names the model,
 * undecided when an undecided one does, else the run's status if it passes. Its own unresolved cells are what leave it
 * undecided, so it is worded as of a complete run.
 */
function modelVerdict(verdict: Verdict, row: LeaderboardRow): VerdictWords {
  return describeVerdict({ status: modelStatus(verdict, row), gated: verdict.gated }, true);
}

function modelStatus(verdict: Verdict, row: LeaderboardRow): VerdictStatus {
  const name = candidateName(row);
  const names = (entry: string) =>
    entry.includes(`/${name}/`) || entry.includes(`/${name}#`) || entry.endsWith(`/${name}`);
  const gateFails = verdict.gates.some((gate) => gate.model === row.model && gate.status === "fail");
  if (gateFails || verdict.contributors.some((contributor) => contributor.failing.some(names))) return "fail";
  if (verdict.contributors.some((contributor) => contributor.unresolved.some(names))) return "unknown";
  return verdict.status === "unknown" ? "unknown" : "pass";
}

function oneLine(message: string): string {
  const text = message.replace(/\s+/g, " ").trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
