// The leaderboard's statistics and verdict, exactly as the CLI reports them: readResults() over the run with its
// benchmark.ts (gates, contributor selection, baseline, 95% CIs). The benchmark is loaded again when it is a few
// seconds old; the summary is made once per version of the run, when the leaderboard is first asked for. A run whose
// benchmark.ts is gone or no longer loads keeps its scores and gets its CIs from the same statistics, with a note
// instead of a verdict.
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { scoreIntervals, type Bounded, type ScoreInterval, type Verdict, type VerdictStatus } from "../results/index.ts";
import { readResults } from "../run/index.ts";
import type { LeaderboardRow, RunOverview } from "./api-types.ts";
import type { RunIndex } from "./run-index.ts";

/** readResults() seeds its bootstrap with 1; so does the fallback, so the two agree. */
const SEED = 1;
/** A loaded benchmark is reused for summaries made within this long; after that it is loaded again, so an edited
 * judge or gate shows in the verdict and CIs (loading bundles every judge.ts: not for every live update). */
const BENCHMARK_REUSE_MS = 5_000;

interface Summary {
  verdict: Verdict | null;
  note: string | null;
  /** Per model, with the score it was computed for (a CI is shown only next to that same score). */
  intervals: Map<string, { interval: ScoreInterval; score: Bounded }>;
}

export class SummaryReader {
  private readonly benchmarks = new Map<string, { loadedAt: number; benchmark: Promise<BenchmarkDefinition> }>();
  private readonly summaries = new Map<string, { version: string; summary: Promise<Summary> }>();

  /** The index's overview with CIs and the verdict (run-wide and per model) filled in. */
  async overview(index: RunIndex): Promise<RunOverview> {
    const { verdict, note, intervals } = await this.read(index);
    const overview = index.overview;
    return {
      ...overview,
      verdict,
      verdictNote: note,
      leaderboard: overview.leaderboard.map((row) => {
        const computed = intervals.get(row.model);
        const matches = computed !== undefined && sameScore(computed.score, row.score);
        return {
          ...row,
          ci: matches ? computed.interval.interval : null,
          ciNote: matches ? computed.interval.reason : "not computed for this score",
          verdict: verdict && !row.control ? modelVerdict(verdict, row) : null,
        };
      }),
    };
  }

  private read(index: RunIndex): Promise<Summary> {
    const cached = this.summaries.get(index.directory);
    if (cached && cached.version === index.version) return cached.summary;
    const summary = this.summarize(index);
    this.summaries.set(index.directory, { version: index.version, summary });
    return summary;
  }

  private async summarize(index: RunIndex): Promise<Summary> {
    const folder = index.run.benchmarkDirectory;
    let cached = this.benchmarks.get(folder);
    if (!cached || Date.now() - cached.loadedAt > BENCHMARK_REUSE_MS) {
      cached = { loadedAt: Date.now(), benchmark: loadBenchmark(folder) };
      this.benchmarks.set(folder, cached);
    }
    const benchmark = cached.benchmark;
    try {
      const summary = await readResults(index.directory, { benchmark: await benchmark });
      return {
        verdict: summary.verdict,
        note: null,
        intervals: new Map(summary.models.map((model) => [model.model, { interval: model.interval, score: model.score }])),
      };
    } catch (error) {
      const scores = new Map(index.overview.leaderboard.map((row) => [row.model, row.score]));
      const intervals = scoreIntervals(index.observations, index.overview.criteria, { seed: SEED });
      return {
        verdict: null,
        note: `No verdict: the run's benchmark (${folder}) could not be read: ${oneLine((error as Error).message)}`,
        intervals: new Map(intervals.map((interval) => [interval.model, { interval, score: scores.get(interval.model)! }])),
      };
    }
  }
}

function sameScore(a: Bounded, b: Bounded): boolean {
  const close = (x: number | null, y: number | null) => (x === null || y === null ? x === y : Math.abs(x - y) < 1e-9);
  return close(a.value, b.value) && close(a.lower, b.lower) && close(a.upper, b.upper);
}

/** "fail" when a failing check names the model, "unknown" when an undecided one does, else the run's status if it passes. */
function modelVerdict(verdict: Verdict, row: LeaderboardRow): VerdictStatus {
  const names = (entry: string) => entry.includes(`/${row.model}/`) || entry.includes(`/${row.model}#`) || entry.endsWith(`/${row.model}`);
  const gateFails = verdict.gates.some((gate) => gate.model === row.model && gate.status === "fail");
  if (gateFails || verdict.contributors.some((contributor) => contributor.failing.some(names))) return "fail";
  if (verdict.contributors.some((contributor) => contributor.unresolved.some(names))) return "unknown";
  return verdict.status === "unknown" ? "unknown" : "pass";
}

function oneLine(message: string): string {
  const text = message.replace(/\s+/g, " ").trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
