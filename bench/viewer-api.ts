// Measurement 5: viewer API latency on a large run. A generated run of 10,000 eval runs (each judged, sharing a few
// recordings) is served by the real `openeval view` server on 127.0.0.1; every endpoint the pages use is requested
// over HTTP at spread-out offsets and timed from request to parsed body. The first request (cold: the store is read
// into memory) and the first leaderboard (its bootstrap CIs and verdict) are reported on rows of their own: they are
// paid once per version of the run, then every answer comes from memory.
import { join } from "node:path";
import { recordInvocationStarted, ResultsStore } from "../packages/openeval/src/results/index.ts";
import { serveViewer } from "../packages/openeval/src/view/index.ts";
import { writeViewerFixture } from "../packages/openeval/src/view/fixtures/viewer-run.ts";
import { now, round } from "./lib/stats.ts";
import { withTempDir } from "./lib/temp.ts";

export interface ViewerApiLatency {
  endpoint: string;
  p50Ms: number;
  p95Ms: number;
}

export interface ViewerApiOptions {
  /** Eval runs in the generated run: evals × 4 models × 10 repetitions (default 10,000). */
  evalRuns?: number;
  /** Timed requests per endpoint (default 60). */
  requests?: number;
}

const MODELS = ["provider/alpha", "provider/beta", "provider/gamma", "control/negative"];
const REPETITIONS = 10;

export async function measureViewerApi(options: ViewerApiOptions = {}): Promise<ViewerApiLatency[]> {
  const evals = Math.max(1, Math.round((options.evalRuns ?? 10_000) / (MODELS.length * REPETITIONS)));
  const requests = options.requests ?? 60;
  return withTempDir("viewer-api", async (root) => {
    const fixture = await writeViewerFixture(join(root, "benchmark"), { evals, models: MODELS, repetitions: REPETITIONS, recordings: 8 });
    recordQueue(fixture.runDirectory, fixture.evalRuns.map((evalRun) => evalRun.slot));
    const viewer = await serveViewer({ run: fixture.runDirectory, port: 0 });
    try {
      const api = `${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}`;
      const total = fixture.evalRuns.length;
      const pick = <T>(items: readonly T[], index: number) => items[Math.floor((index * 7919) % items.length)]!;
      const offset = (index: number, size: number) => Math.floor((index / requests) * Math.max(size - 100, 1));

      // Cold: the first request reads the store into memory; the first leaderboard adds CIs and the verdict.
      const coldIndex = await time(`${api}/eval-runs?limit=100`);
      const coldSummary = await time(api);
      // The queue and each comparison are made once per version of the run(s), then answered from memory.
      const compareUrl = (model: string) => `${viewer.url}api/compare?a=${fixture.runId}&b=${fixture.runId}&ma=${encodeURIComponent(MODELS[0]!)}&mb=${encodeURIComponent(model)}`;
      const coldQueue = await time(`${api}/queue`);
      const coldCompare = await time(compareUrl(MODELS[1]!));
      const endpoints: [string, (index: number) => string][] = [
        ["GET /api/runs", () => `${viewer.url}api/runs`],
        ["GET /api/runs/:run (leaderboard)", () => api],
        ["GET /api/runs/:run/matrix (page of 100 evals)", (index) => `${api}/matrix?offset=${offset(index, evals)}&limit=100`],
        ["GET /api/runs/:run/eval-runs (page of 100)", (index) => `${api}/eval-runs?offset=${offset(index, total)}&limit=100`],
        ["GET /api/runs/:run/eval-runs?model&sort=score (filtered, sorted page)", (index) => `${api}/eval-runs?model=${encodeURIComponent(pick(MODELS, index))}&sort=score&desc=1&offset=${offset(index, total / MODELS.length)}&limit=100`],
        ["GET /api/runs/:run/eval-runs/:id (detail)", (index) => `${api}/eval-runs/${pick(fixture.evalRuns, index).id}`],
        ["GET /api/runs/:run/eval-runs/:id/transcript", (index) => `${api}/eval-runs/${pick(fixture.evalRuns, index).id}/transcript?limit=50`],
        ["GET /api/runs/:run/judge-runs/:id", (index) => `${api}/judge-runs/${pick(fixture.judgeRuns, index).id}`],
        ["GET /api/runs/:run/queue (an invocation of 10,000 planned slots)", () => `${api}/queue`],
        ["GET /api/compare (two models of the run, paired CI)", (index) => compareUrl(pick(MODELS.slice(1), index))],
      ];
      const results: ViewerApiLatency[] = [
        { endpoint: `first request, cold (read ${total.toLocaleString("en-US")} eval runs + judge runs into memory)`, p50Ms: round(coldIndex), p95Ms: round(coldIndex) },
        { endpoint: "first leaderboard, cold (95% CIs by bootstrap, verdict)", p50Ms: round(coldSummary), p95Ms: round(coldSummary) },
        { endpoint: "first queue, cold (derived from 10,000 eval runs and the invocation's plan)", p50Ms: round(coldQueue), p95Ms: round(coldQueue) },
        { endpoint: "first comparison, cold (aggregation of both sides, paired bootstrap)", p50Ms: round(coldCompare), p95Ms: round(coldCompare) },
      ];
      for (const [endpoint, url] of endpoints) {
        await time(url(0)); // warm-up
        const samples: number[] = [];
        for (let index = 0; index < requests; index++) samples.push(await time(url(index)));
        results.push({ endpoint, p50Ms: round(percentile(samples, 0.5), 2), p95Ms: round(percentile(samples, 0.95), 2) });
      }
      return results;
    } finally {
      await viewer.stop();
    }
  });
}

/** The queue an invocation that planned every slot would leave (it started just before the fixture's first eval run). */
function recordQueue(runDirectory: string, slots: { evalId: string; model: string; repetition: number }[]): void {
  const store = ResultsStore.open(runDirectory);
  try {
    recordInvocationStarted(store, { invocation: "inv_bench", startedAt: "2026-11-29T11:59:00.000Z", pid: process.pid, concurrency: 4, maxCostUSD: 200, estimateUSD: null, work: slots.map((slot) => ({ kind: "candidate", ...slot })) });
  } finally {
    store.close();
  }
}

async function time(url: string): Promise<number> {
  const start = now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  await response.json();
  return now() - start;
}

/** Nearest-rank percentile. */
function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

if (import.meta.main) {
  for (const row of await measureViewerApi()) console.log(`${row.endpoint.padEnd(80)} p50 ${String(row.p50Ms).padStart(8)} ms   p95 ${String(row.p95Ms).padStart(8)} ms`);
}
