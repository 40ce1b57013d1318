// Measurement 5: viewer API latency and memory on a large run. A generated run of N eval runs (each judged, sharing a
// few recordings) is served by the real `openeval view` command in its own process on 127.0.0.1, so its memory
// (/proc VmRSS, VmHWM) is the server's alone; every endpoint the pages use is requested over HTTP at spread-out
// offsets and timed from request to parsed body. The first leaderboard (cold: the summary the run recorded at its
// end, its key checked), the first page of eval runs (the store read into memory), the first queue and the first
// comparison are reported on rows of their own: they are paid once per version of the run, then every answer comes
// from memory.
import { join } from "node:path";
import { loadBenchmark } from "../packages/openeval/src/index.ts";
import { candidateFingerprint, judgeFingerprint } from "../packages/openeval/src/plan/index.ts";
import { recordInvocationStarted, ResultsStore, type SlotKey } from "../packages/openeval/src/records/index.ts";
import { recordVerdictSettings, verdictSettingsOf } from "../packages/openeval/src/results/index.ts";
import { recordSummary } from "../packages/openeval/src/summary/index.ts";
import { writeViewerFixture, type ViewerFixtureOptions } from "../packages/openeval/src/view/fixtures/viewer-run.ts";
import { CHANGE_SORTS, type RunOverview } from "../packages/openeval/src/view/viewer-api.ts";
import { REPO_ROOT } from "./lib/fixtures.ts";
import { readProcessMemory } from "./lib/proc-memory.ts";
import { now, round } from "./lib/stats.ts";
import type { Section } from "./lib/table.ts";
import { withTempDir, writeTree } from "./lib/temp.ts";

export interface ViewerApiLatency {
  endpoint: string;
  p50Ms: number;
  p95Ms: number;
}

export interface ViewerApiResult {
  evalRuns: number;
  /** Writing the generated run (store rows, judge folders, shared recordings), once. */
  fixtureMs: number;
  /** Recording its summary as a runner does at its end (load the benchmark, check and summarize every record), once. */
  recordSummaryMs: number;
  latencies: ViewerApiLatency[];
  /** The `openeval view` process: resident set once listening, after the cold reads, and its peak over the whole measurement. */
  server: { rssListeningMiB: number; rssAfterColdMiB: number; rssEndMiB: number; peakRssMiB: number };
  /**
   * Set when the first leaderboard was not the CLI's summary of every slot (no verdict, or slots left unjudged), or
   * was computed by the viewer rather than read from the summary the run recorded.
   */
  warnings: string[];
}

export interface ViewerApiOptions {
  /** Eval runs in the generated run: evals × 4 models × 10 repetitions. */
  evalRuns: number;
  /** Timed requests per endpoint (default 60). */
  requests?: number;
}

const MODELS = ["provider/alpha", "provider/beta", "provider/gamma", "control/negative"];
const REPETITIONS = 10;

export async function measureViewerApi(options: ViewerApiOptions): Promise<ViewerApiResult> {
  const evals = Math.max(1, Math.round(options.evalRuns / (MODELS.length * REPETITIONS)));
  const requests = options.requests ?? 60;
  return withTempDir("viewer-api", async (root) => {
    const fixtureStart = now();
    const fingerprints = await writeBenchmark(join(root, "benchmark"), evals);
    const fixture = await writeViewerFixture(join(root, "benchmark"), {
      evals,
      models: MODELS,
      repetitions: REPETITIONS,
      recordings: 8,
      fingerprints,
    });
    recordQueue(
      fixture.runDirectory,
      fixture.evalRuns.map((evalRun) => evalRun.slot),
    );
    const fixtureMs = round(now() - fixtureStart);
    const recordStart = now();
    await recordRunEnd(fixture.runDirectory);
    const recordSummaryMs = round(now() - recordStart);
    const viewer = await spawnViewer(fixture.runDirectory);
    try {
      const api = `${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}`;
      const total = fixture.evalRuns.length;
      const pick = <T>(items: readonly T[], index: number) => items[Math.floor((index * 7919) % items.length)]!;
      const offset = (index: number, size: number) => Math.floor((index / requests) * Math.max(size - 100, 1));

      // Cold: the page opens on the leaderboard, which a finished run answers from the summary it recorded once its key
      // holds (else the store is read into memory and the CIs and the verdict made); the first page of eval runs after
      // it reads the store into memory (unless the leaderboard did), timed apart.
      const [coldSummary, overview] = await timeWithBody<
        Pick<RunOverview, "verdictWords" | "verdictNote" | "summaryRecordedAt"> & {
          leaderboard: { candidate: string; score: { value: number | null } }[];
        }
      >(api);
      const unscored = overview.leaderboard.filter((row) => row.score.value === null).map((row) => row.candidate);
      const warnings = [
        ...(overview.verdictWords !== null && overview.verdictWords.headline !== "incomplete" && unscored.length === 0
          ? []
          : [
              `WARNING: the first leaderboard is not the summary of a complete run (verdict ${overview.verdictWords?.headline ?? "none"}${unscored.length > 0 ? `, unresolved: ${unscored.join(", ")}` : ""}; ${overview.verdictNote ?? ""}): not the path a user gets`,
            ]),
        ...(overview.summaryRecordedAt
          ? []
          : [
              "WARNING: the first leaderboard was computed by the viewer, not read from the summary the run recorded at its end: not the path a user gets after `openeval run`",
            ]),
      ];
      const coldIndex = await time(`${api}/eval-runs?limit=100`);
      // The queue and each comparison are made once per version of the run(s), then answered from memory: the page
      // header from /api/compare, its changes in pages cut from the kept comparison.
      const pairs = MODELS.slice(1).map(
        (model) =>
          `a=${fixture.runId}&b=${fixture.runId}&ma=${encodeURIComponent(MODELS[0]!)}&mb=${encodeURIComponent(model)}`,
      );
      const coldQueue = await time(`${api}/queue`);
      const coldCompare = await time(`${viewer.url}api/compare?${pairs[0]}`);
      // The other pairs are made too (untimed), so that the rows below time answers from memory, as the page gets them.
      for (const pair of pairs.slice(1)) await time(`${viewer.url}api/compare?${pair}`);
      const changes = (
        (await (await fetch(`${viewer.url}api/compare/changes?${pairs[0]}&limit=1`)).json()) as { total: number }
      ).total;
      const changesUrl = (index: number) =>
        `${viewer.url}api/compare/changes?${pick(pairs, index)}&sort=${pick(CHANGE_SORTS, index + 1)}&desc=${index % 2}&offset=${offset(index, changes)}&limit=100`;
      const afterCold = viewer.memory();
      const endpoints: [string, (index: number) => string][] = [
        ["GET /api/runs", () => `${viewer.url}api/runs`],
        ["GET /api/runs/:run (leaderboard)", () => api],
        [
          "GET /api/runs/:run/matrix (page of 100 evals)",
          (index) => `${api}/matrix?offset=${offset(index, evals)}&limit=100`,
        ],
        [
          "GET /api/runs/:run/eval-runs (page of 100)",
          (index) => `${api}/eval-runs?offset=${offset(index, total)}&limit=100`,
        ],
        [
          "GET /api/runs/:run/eval-runs?model&sort=score (filtered, sorted page)",
          (index) =>
            `${api}/eval-runs?model=${encodeURIComponent(pick(MODELS, index))}&sort=score&desc=1&offset=${offset(index, total / MODELS.length)}&limit=100`,
        ],
        [
          "GET /api/runs/:run/eval-runs/:id (detail)",
          (index) => `${api}/eval-runs/${pick(fixture.evalRuns, index).id}`,
        ],
        [
          "GET /api/runs/:run/eval-runs/:id/transcript",
          (index) => `${api}/eval-runs/${pick(fixture.evalRuns, index).id}/transcript?limit=50`,
        ],
        ["GET /api/runs/:run/judge-runs/:id", (index) => `${api}/judge-runs/${pick(fixture.judgeRuns, index).id}`],
        [
          `GET /api/runs/:run/queue (an invocation of ${total.toLocaleString("en-US")} planned slots)`,
          () => `${api}/queue`,
        ],
        [
          "GET /api/compare (the page header: a pair's scores, paired CI, counts)",
          (index) => `${viewer.url}api/compare?${pick(pairs, index)}`,
        ],
        [
          `GET /api/compare/changes (page of 100 of ${changes.toLocaleString("en-US")} changes, each sort and direction in turn)`,
          changesUrl,
        ],
      ];
      const results: ViewerApiLatency[] = [
        {
          endpoint:
            "first leaderboard, cold (the summary the run recorded, its key checked: no eval run read, no benchmark loaded)",
          p50Ms: round(coldSummary),
          p95Ms: round(coldSummary),
        },
        {
          endpoint: `first page of eval runs after it (reads ${total.toLocaleString("en-US")} eval runs + judge runs into memory)`,
          p50Ms: round(coldIndex),
          p95Ms: round(coldIndex),
        },
        {
          endpoint: `first queue, cold (derived from ${total.toLocaleString("en-US")} eval runs and the invocation's plan)`,
          p50Ms: round(coldQueue),
          p95Ms: round(coldQueue),
        },
        {
          endpoint: "first comparison, cold (aggregation of both sides, paired bootstrap)",
          p50Ms: round(coldCompare),
          p95Ms: round(coldCompare),
        },
      ];
      for (const [endpoint, url] of endpoints) {
        await time(url(0)); // warm-up
        const samples: number[] = [];
        for (let index = 0; index < requests; index++) samples.push(await time(url(index)));
        results.push({
          endpoint,
          p50Ms: round(percentile(samples, 0.5), 2),
          p95Ms: round(percentile(samples, 0.95), 2),
        });
      }
      const end = viewer.memory();
      return {
        evalRuns: total,
        fixtureMs,
        recordSummaryMs,
        latencies: results,
        server: {
          rssListeningMiB: viewer.listening.rssMiB,
          rssAfterColdMiB: afterCold.rssMiB,
          rssEndMiB: end.rssMiB,
          peakRssMiB: end.peakRssMiB,
        },
        warnings,
      };
    } finally {
      await viewer.stop();
    }
  });
}

/** `openeval view --run <dir> --port 0` as its own process, resolved once it prints the URL it listens on. */
async function spawnViewer(runDirectory: string) {
  const child = Bun.spawn(
    [
      process.execPath,
      join(REPO_ROOT, "packages", "openeval", "src", "cli", "main.ts"),
      "view",
      "--run",
      runDirectory,
      "--port",
      "0",
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const memory = () => {
    const read = readProcessMemory(child.pid);
    if (!read) throw new Error(`openeval view (pid ${child.pid}) exited early`);
    return read;
  };
  let printed = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  while (!/openeval viewer: \S+\n/.test(printed)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    printed += decoder.decode(chunk.value);
  }
  reader.releaseLock();
  const match = /openeval viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(printed);
  if (!match) {
    child.kill();
    throw new Error(`openeval view did not print its URL; it printed: ${printed}`);
  }
  const listening = memory();
  return {
    url: match[1]!,
    listening,
    memory,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

export function sectionViewerApi(result: ViewerApiResult): Section {
  const { server } = result;
  return {
    title: `5. Viewer API latency and server memory (generated run of ${result.evalRuns.toLocaleString("en-US")} judged eval runs; \`openeval view\` in its own process)`,
    columns: ["endpoint", "p50 ms", "p95 ms"],
    rows: [
      ...result.latencies.map((row) => [row.endpoint, String(round(row.p50Ms, 2)), String(round(row.p95Ms, 2))]),
      ...result.warnings.map((warning) => [warning, "", ""]),
    ],
    notes: [
      ...result.warnings,
      `server RSS: ${server.rssListeningMiB} MiB listening, ${server.rssAfterColdMiB} MiB after the cold reads, ${server.rssEndMiB} MiB at the end; peak (VmHWM) ${server.peakRssMiB} MiB (aim < 500 MB)`,
      `aims: first leaderboard cold < 1 s, every paged endpoint p95 < 20 ms · writing the generated run took ${(result.fixtureMs / 1000).toFixed(1)} s, recording its summary as a runner's end does ${(result.recordSummaryMs / 1000).toFixed(1)} s`,
    ],
  };
}

/** The queue an invocation that planned every slot would leave (it started just before the fixture's first eval run). */
function recordQueue(runDirectory: string, slots: SlotKey[]): void {
  const store = ResultsStore.open(runDirectory);
  try {
    recordInvocationStarted(store, {
      invocation: "inv_bench",
      startedAt: "2026-11-29T11:59:00.000Z",
      pid: process.pid,
      concurrency: 4,
      maxCostUSD: 200,
      estimateUSD: null,
      work: slots.map((slot) => ({ kind: "candidate", ...slot })),
    });
  } finally {
    store.close();
  }
}

/**
 * What a runner records at its end, after its rows: the verdict's settings, then the summary a reader would make
 * (recordSummary, the runner's own call), so that the first leaderboard takes the path a user's does after a run.
 */
async function recordRunEnd(runDirectory: string): Promise<void> {
  const store = ResultsStore.open(runDirectory);
  try {
    recordVerdictSettings(store, verdictSettingsOf((await loadBenchmark(store.readRun().benchmarkDirectory)).settings));
    await recordSummary(store);
  } finally {
    store.close();
  }
}

/**
 * benchmark.ts (every model's candidates in process isolation, rubric judged by control/judge) and one eval folder per
 * fixture eval (prompt.md, judge.ts, judge.md, the control's script), loaded to give the fingerprints the fixture
 * records: readResults then re-plans every slot as scored, so the first leaderboard takes the path a user's does
 * (load the benchmark, plan, summary, verdict) rather than the fallback for a run whose benchmark.ts is gone.
 */
async function writeBenchmark(directory: string, evals: number): Promise<ViewerFixtureOptions["fingerprints"]> {
  const settings = {
    models: MODELS,
    repetitions: REPETITIONS,
    judge: { model: "control/judge", timeoutMs: 60_000 },
    candidate: { timeoutMs: 120_000, isolation: "process" },
  };
  const files: Record<string, string> = { "benchmark.ts": `export default ${JSON.stringify(settings)};\n` };
  for (let n = 1; n <= evals; n++) {
    const id = `eval-${String(n).padStart(4, "0")}`;
    files[`evals/${id}/prompt.md`] = `Fix the bug in slugify.js (${id}).\n`;
    files[`evals/${id}/judge.ts`] =
      `const EVAL = ${JSON.stringify(id)};\nexport default () => ({ scores: { tests_pass: EVAL.length > 0 } });\n`;
    files[`evals/${id}/judge.md`] =
      "## Criterion: focused_fix — Focused fix\nPass when only slugify.js changed and the tests were run.\n";
    files[`evals/${id}/controls/negative.json`] = JSON.stringify({ turns: [{ text: "Not fixed." }] });
  }
  await writeTree(directory, files);
  const benchmark = await loadBenchmark(directory);
  const byId = new Map(benchmark.evals.map((evaluation) => [evaluation.id, evaluation]));
  const judges = new Map(
    benchmark.evals.map((evaluation) => [evaluation.id, judgeFingerprint(evaluation, benchmark.settings)]),
  );
  return {
    candidate: (slot) => candidateFingerprint(byId.get(slot.evalId)!, slot.model, benchmark.settings),
    judge: (evalId) => judges.get(evalId)!,
  };
}

async function time(url: string): Promise<number> {
  return (await timeWithBody(url))[0];
}

async function timeWithBody<T>(url: string): Promise<[number, T]> {
  const start = now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as T;
  return [now() - start, body];
}

/** Nearest-rank percentile. */
function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

if (import.meta.main) {
  const { formatSection } = await import("./lib/table.ts");
  console.log(
    formatSection(sectionViewerApi(await measureViewerApi({ evalRuns: Number(process.argv[2] ?? 100_000) }))),
  );
}
