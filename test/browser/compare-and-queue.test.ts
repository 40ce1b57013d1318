// The queue and compare pages in a real browser: the live queue while `openeval run` works on the example benchmark (two of its evals,
// exact-answer and fix-discount, so the journey takes a few minutes), then a second run of it with the judge edited so that a criterion
// regresses — the compare page and `report --compare --json` show the regression and open the slot's two
// transcripts side by side — a generated comparison of 260 changes whose list the server pages as it scrolls
// (served and exported), and the plots, whose numbers must match the API, from the server and from a static export.
// Screenshots go to test-artifacts/viewer/.
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ChangeRow,
  ComparisonAnswer,
  ComparisonSummary,
  LeaderboardRow,
  MatrixAnswer,
  Page as ApiPage,
  QueueAnswer,
  RunOverview,
} from "../../packages/openeval/src/view/index.ts";
import { selectChanges, summarizeComparison } from "../../packages/openeval/src/view/compare-pages.ts";
import { writeViewerFixture, type ViewerFixture } from "../../packages/openeval/src/view/fixtures/viewer-run.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { launchChromium, screenshot, watchErrors } from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "packages", "openeval", "bin", "openeval");
const BENCHMARK = join(ROOT, "test-artifacts", "browser-runs", "insight");
const EXPORTED = join(ROOT, "test-artifacts", "browser-runs", "insight-export");
const JUDGE = join(BENCHMARK, "evals", "exact-answer", "judge.ts");
/** Later than any run id made today, so that run b sorts after run a. */
const RUN_B = "9999-12-31T00-00-00.000Z-edited00";

let browser: Browser;
let viewer: { url: string; process: ReturnType<typeof Bun.spawn> };
let runA: string;

beforeAll(async () => {
  await rm(BENCHMARK, { recursive: true, force: true });
  for (const source of ["benchmark.ts", "evals/exact-answer", "evals/fix-discount"])
    await cp(join(ROOT, source), join(BENCHMARK, source), { recursive: true });
  // Current only: the example's variant arm would double this journey's sessions without adding to what it checks.
  const settings = await readFile(join(BENCHMARK, "benchmark.ts"), "utf8");
  const withoutVariants = settings.replace(/^ *variants: \{.*\},\n/m, "");
  expect(withoutVariants, "benchmark.ts has a one-line variants entry to leave out").not.toBe(settings);
  await writeFile(join(BENCHMARK, "benchmark.ts"), withoutVariants);
  viewer = await startViewer(BENCHMARK);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  viewer?.process.kill();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${viewer.url}api/${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  return { page, errors: watchErrors(page) };
}

describe("the live queue", () => {
  it("shows running work and an ETA that changes while openeval run works, and ends in the summary", async () => {
    const run = Bun.spawn(["node", BIN, "run", "--new", "--benchmark", BENCHMARK], {
      stdout: "ignore",
      stderr: "ignore",
    });
    const { page, errors } = await newPage();
    try {
      // The run appears under results/ once its store exists; its page opens on the queue while it is live.
      await expect
        .poll(async () => (await readdir(join(BENCHMARK, "results")).catch(() => [])).length, { timeout: 60_000 })
        .toBe(1);
      runA = (await readdir(join(BENCHMARK, "results")))[0]!;
      await page.goto(`${viewer.url}#/runs/${encodeURIComponent(runA)}`);
      await page.locator('[data-testid="queue"][data-status="running"]').waitFor({ timeout: 60_000 });
      await page.locator('[data-testid="queue-running"] tr').first().waitFor({ timeout: 60_000 });
      await screenshot(page, "queue-running");
      // The ETA is known once a candidate and a judge have finished; then it changes (live updates, and each second).
      const eta = page.locator('[data-testid="queue-eta"] .stat-value');
      await expect.poll(() => eta.textContent(), { timeout: 120_000 }).toMatch(/\d/);
      const first = await eta.textContent();
      await expect.poll(() => eta.textContent(), { timeout: 10_000 }).not.toBe(first);
      const live = await api<QueueAnswer>(`runs/${encodeURIComponent(runA)}/queue`);
      expect(live.invocation).toMatchObject({ concurrency: expect.any(Number), maxCostUSD: null });
      await page.locator('[data-testid="queue"][data-status="finished"]').waitFor({ timeout: 800_000 });
      await page.locator('[data-testid="queue-summary"] [data-testid="score-plot"]').waitFor();
      const done = await api<QueueAnswer>(`runs/${encodeURIComponent(runA)}/queue`);
      expect(done).toMatchObject({
        status: "finished",
        running: { total: 0 },
        queued: { total: 0 },
        summary: { complete: true },
      });
      // 2 evals × 2 models × 2 repetitions: 8 candidates and their 8 judgments.
      expect(done.finished.total).toBe(16);
      expect(await page.locator('[data-testid="queue-finished"] tr').count()).toBe(16);
      await screenshot(page, "queue-finished");
      expect(await run.exited).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      // Interrupted as a user would (Ctrl+C), so that it cleans up after itself.
      if (run.exitCode === null) run.kill("SIGINT");
      await run.exited;
      await page.close();
    }
  }, 900_000);
});

describe("comparing two runs (the judge edited so that a criterion regresses)", () => {
  let comparison: ComparisonAnswer;

  beforeAll(async () => {
    expect(runA, "run a comes from the live-queue journey").toBeDefined();
    await cp(join(BENCHMARK, "results", runA), join(BENCHMARK, "results", RUN_B), { recursive: true });
    await writeFile(JUDGE, (await readFile(JUDGE, "utf8")).replace('"APPLE"', '"BANANA"'));
    const rejudge = await runCli(["run", "--run", join(BENCHMARK, "results", RUN_B), "--benchmark", BENCHMARK], {
      timeoutMs: 300_000,
    });
    expect(rejudge.exitCode, rejudge.stderr).toBe(0);
    const report = await runCli(["report", "--compare", runA, RUN_B, "--json", "--benchmark", BENCHMARK]);
    expect(report.exitCode, report.stderr).toBe(0);
    comparison = JSON.parse(report.stdout) as ComparisonAnswer;
  });

  it("report --compare --json shows the criterion as a regression with the right difference", () => {
    const positive = comparison.pairs.find((pair) => pair.b === "control/positive")!;
    expect(positive.evals.find((evaluation) => evaluation.evalId === "exact-answer")!.criteria[0]).toMatchObject({
      evalId: "exact-answer",
      criterionId: "correct_answer",
      a: 1,
      b: 0,
      difference: -1,
      status: "regression",
    });
    expect(positive.counts.regression).toBe(1);
    // exact-answer drops by 100 points, fix-discount is unchanged: −50 on average over the two evals.
    expect(positive.paired).toMatchObject({ meanDifference: -50, pairedEvals: 2, interval: { lower: -100, upper: 0 } });
    expect(comparison.pairs.find((pair) => pair.b === "control/negative")!.counts.regression).toBe(0);
  });

  it("the compare page highlights it, and its slot's two transcripts open side by side", async () => {
    const { page, errors } = await newPage();
    try {
      await page.goto(`${viewer.url}#/runs/${encodeURIComponent(RUN_B)}?tab=compare`);
      const row = page.locator('[data-criterion="exact-answer/correct_answer"]');
      await row.waitFor();
      expect(await page.locator('select[name="against"]').inputValue()).toBe(runA);
      expect(await row.getAttribute("data-status")).toBe("regression");
      expect(Number(await row.getAttribute("data-difference"))).toBe(-1);
      expect(await row.locator(".number.strong").textContent()).toBe("−100.0");
      expect(await page.locator('[data-testid="regressions"]').textContent()).toBe("1 worse");
      expect(await page.locator('[data-testid="difference-plot"] svg').getAttribute("aria-labelledby")).toMatch(
        /plot-difference-plot-title/,
      );
      await screenshot(page, "compare-runs");
      await row.locator('a[data-side-by-side="1"]').click();
      await page.locator('[data-testid="side-by-side"] [data-side="b"] [data-testid="transcript"]').waitFor();
      for (const side of ["a", "b"])
        expect(await page.locator(`[data-side="${side}"] .response-box`).textContent()).toContain("APPLE");
      const verdict = (side: string) =>
        page.locator(`[data-side="${side}"] [data-testid="side-criteria"] [data-criterion="correct_answer"] .credit`);
      await verdict("b").waitFor();
      expect(await verdict("a").textContent()).toBe("100%");
      expect(await verdict("b").textContent()).toBe("0%");
      await screenshot(page, "side-by-side");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("the same comparison reaches the page through the API (sorted by difference, two models of one run)", async () => {
    expect(await api<ComparisonSummary>(`compare?a=${runA}&b=${RUN_B}`)).toEqual(summarizeComparison(comparison));
    for (const [pair, view] of comparison.pairs.entries()) {
      expect(
        (await api<ApiPage<ChangeRow>>(`compare/changes?a=${runA}&b=${RUN_B}&pair=${pair}&limit=500`)).items,
      ).toEqual(selectChanges(view, {}));
    }
    const { page, errors } = await newPage();
    try {
      await page.goto(
        `${viewer.url}#/runs/${encodeURIComponent(RUN_B)}?tab=compare&against=models&ma=control%2Fpositive&mb=control%2Fnegative&sort=difference`,
      );
      await page.locator('[data-testid="compare-summary"]').waitFor();
      const models = await api<ComparisonSummary>(
        `compare?a=${RUN_B}&b=${RUN_B}&ma=control%2Fpositive&mb=control%2Fnegative`,
      );
      expect(Number(await page.locator('[data-testid="compare-summary"]').getAttribute("data-difference"))).toBeCloseTo(
        models.pairs[0]!.paired.meanDifference!,
      );
      const differences = await page
        .locator(".change-row")
        .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-difference"))));
      expect(differences).toEqual([...differences].sort((a, b) => a - b));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("a comparison of many evals, paged by the server", () => {
  /** 130 evals × 2 criteria: 260 changes, three pages of 100. alpha passes both criteria, beta tests_pass only. */
  const EVALS = 130;
  const pairQuery = "against=models&ma=provider%2Falpha&mb=provider%2Fbeta";
  let fixture: ViewerFixture;
  let served: Awaited<ReturnType<typeof startViewer>>;

  beforeAll(async () => {
    fixture = await writeViewerFixture(await makeTempDir(), {
      evals: EVALS,
      models: ["provider/alpha", "provider/beta"],
      repetitions: 1,
    });
    served = await startViewer(fixture.benchmarkDirectory);
  });
  afterAll(() => served?.process.kill());

  /** Scrolls the list of changes to its end and gives the last row's criterion, status and position. */
  async function lastRowAfterScrolling(page: Page, expected: string) {
    await page.locator(".change-row").first().waitFor();
    await page.locator(".virtual-viewport").evaluate((viewport) => viewport.scrollTo(0, viewport.scrollHeight));
    const row = page.locator(`.change-row[data-criterion="${expected}"]`);
    await row.waitFor();
    const statuses = await page
      .locator(".change-row")
      .evaluateAll((rows) => rows.map((entry) => entry.getAttribute("data-status")));
    return { row, statuses, index: Number(await row.locator("xpath=..").getAttribute("data-index")) };
  }

  it("fetches the page the list scrolls to, not the whole comparison, and opens a slot of it side by side", async () => {
    const { page, errors } = await newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    try {
      await page.goto(`${served.url}#/runs/${encodeURIComponent(fixture.runId)}?tab=compare&${pairQuery}`);
      await page.locator('[data-testid="compare-summary"]').waitFor();
      expect(await page.locator('[data-testid="eval-count"]').textContent()).toBe(String(EVALS));
      expect(await page.locator('[data-testid="regressions"]').textContent()).toBe(`${EVALS} worse`);
      // Regressions first (focused_fix of every eval), then the unchanged tests_pass: the last is on the third page.
      const { row, statuses, index } = await lastRowAfterScrolling(page, `eval-0${EVALS}/tests_pass`);
      expect(index).toBe(2 * EVALS - 1);
      expect(await row.getAttribute("data-status")).toBe("unchanged");
      expect(new Set(statuses)).toEqual(new Set(["unchanged"]));
      const pages = requested
        .filter((url) => url.includes("/api/compare/changes?"))
        .map((url) => new URL(url).searchParams);
      expect(pages.map((params) => params.get("offset"))).toContain("200");
      expect(pages.every((params) => params.get("limit") === "100" && params.get("pair") === "0")).toBe(true);
      await screenshot(page, "compare-paged", { viewport: true });
      await row.locator('a[data-side-by-side="1"]').click();
      await page.locator('[data-testid="side-by-side"] [data-side="b"] [data-testid="transcript"]').waitFor();
      await page.locator('[data-testid="side-by-side"] [data-side="a"] [data-testid="transcript"]').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("filters and sorts on the server: every page holds only the chosen status, in the chosen order", async () => {
    const { page, errors } = await newPage();
    try {
      await page.goto(
        `${served.url}#/runs/${encodeURIComponent(fixture.runId)}?tab=compare&${pairQuery}&status=regression&sort=eval&desc=1`,
      );
      expect(await page.locator(".change-row").first().getAttribute("data-criterion")).toBe(
        `eval-0${EVALS}/focused_fix`,
      );
      const { statuses, index } = await lastRowAfterScrolling(page, "eval-0001/focused_fix");
      expect(index).toBe(EVALS - 1);
      expect(new Set(statuses)).toEqual(new Set(["regression"]));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("pages the same comparison from a static export, without a server", async () => {
    const output = join(await makeTempDir(), "export");
    exportRun(fixture.runId, fixture.benchmarkDirectory, output);
    const { page, errors } = await newPage();
    try {
      await page.goto(
        `file://${join(output, "index.html")}#/runs/${encodeURIComponent(fixture.runId)}?tab=compare&${pairQuery}`,
      );
      expect(await page.locator('[data-testid="eval-count"]').textContent()).toBe(String(EVALS));
      const { row, index } = await lastRowAfterScrolling(page, `eval-0${EVALS}/tests_pass`);
      expect(index).toBe(2 * EVALS - 1);
      expect(await row.getAttribute("data-status")).toBe("unchanged");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** Plot marks carry the numbers they draw: they must be the API's. */
async function checkPlots(
  page: Page,
  base: string,
  run: string,
  overview: RunOverview,
  matrix: MatrixAnswer,
  label: string,
): Promise<void> {
  await page.goto(`${base}#/runs/${encodeURIComponent(run)}?tab=leaderboard`);
  await page.locator('[data-testid="score-plot"] .score-mark').first().waitFor();
  for (const row of overview.leaderboard) {
    const mark = page.locator(`[data-testid="score-plot"] .score-mark[data-model="${row.model}"]`);
    expect(row.score.value, `${row.model} is resolved`).not.toBeNull();
    expect(Number(await mark.getAttribute("data-score")), row.model).toBe(row.score.value);
    expect(await mark.getAttribute("data-ci-lower")).toBe(row.ci ? String(row.ci.lower) : "");
    expect(await mark.getAttribute("aria-label")).toContain(`${row.model}: score ${row.score.value!.toFixed(1)}%`);
  }
  for (const id of ["score-plot", "cost-plot", "time-plot"]) {
    const svg = page.locator(`[data-testid="${id}"] svg`);
    expect(await svg.getAttribute("role")).toBe("img");
    expect(
      (await page.locator(`[data-testid="${id}"] desc`).textContent())!.length,
      `${id} describes its numbers`,
    ).toBeGreaterThan(20);
  }
  const timed = overview.leaderboard.filter((row) => row.medianElapsedMs !== null && row.score.value !== null);
  const front = new Set(
    timed
      .filter(
        (row) =>
          !timed.some(
            (other) =>
              other !== row &&
              other.medianElapsedMs! <= row.medianElapsedMs! &&
              other.score.value! >= row.score.value! &&
              (other.medianElapsedMs! < row.medianElapsedMs! || other.score.value! > row.score.value!),
          ),
      )
      .map((row: LeaderboardRow) => row.model),
  );
  for (const row of timed) {
    const mark = page.locator(`[data-testid="time-plot"] .trade-mark[data-model="${row.model}"]`);
    expect(Number(await mark.getAttribute("data-x"))).toBe(row.medianElapsedMs);
    expect(await mark.getAttribute("data-pareto"), `${row.model} on the time/score Pareto front`).toBe(
      front.has(row.model) ? "1" : "0",
    );
  }
  await screenshot(page, `${label}-leaderboard-plots`);
  await page.goto(`${base}#/runs/${encodeURIComponent(run)}?tab=matrix`);
  await page.locator('[data-testid="heat-map"] .heat-cell').first().waitFor();
  expect(await page.locator('[data-testid="heat-map"] .heat-cell').count()).toBe(
    matrix.items.length * matrix.candidates.length,
  );
  for (const row of matrix.items) {
    for (const cell of row.cells) {
      expect(
        await page
          .locator(`.heat-cell[data-plot-eval="${row.evalId}"][data-plot-model="${cell.candidate}"]`)
          .getAttribute("data-value"),
      ).toBe(cell.score.value === null ? "" : String(cell.score.value));
      const dots = cell.slots.filter((slot) => slot.value !== null).length;
      expect(
        await page
          .locator(
            `[data-testid="repetition-plot"] .rep-dot[data-plot-eval="${row.evalId}"][data-plot-model="${cell.candidate}"]`,
          )
          .count(),
      ).toBe(dots);
    }
  }
  // The matrix's own rows are still the only [data-eval] elements (viewer.test.ts counts them).
  expect(await page.locator("[data-eval]").count()).toBe(matrix.items.length);
  await screenshot(page, `${label}-matrix-plots`);
}

describe("plots", () => {
  let overview: RunOverview;
  let matrix: MatrixAnswer;

  beforeAll(async () => {
    overview = await api<RunOverview>(`runs/${encodeURIComponent(RUN_B)}`);
    matrix = await api<MatrixAnswer>(`runs/${encodeURIComponent(RUN_B)}/matrix?limit=40`);
  });

  it("draw the API's numbers with accessible labels, served", async () => {
    const { page, errors } = await newPage();
    try {
      await checkPlots(page, viewer.url, RUN_B, overview, matrix, "server");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("draw the same from a static export, without a server; its compare tab works too", async () => {
    await rm(EXPORTED, { recursive: true, force: true });
    exportRun(RUN_B, BENCHMARK, EXPORTED);
    const { page, errors } = await newPage();
    const base = `file://${join(EXPORTED, "index.html")}`;
    try {
      await checkPlots(page, base, RUN_B, overview, matrix, "export");
      await page.goto(`${base}#/runs/${encodeURIComponent(RUN_B)}?tab=compare`);
      await page.locator('[data-testid="compare-summary"]').waitFor();
      expect(await page.locator('select[name="against"]').inputValue()).toBe("models");
      expect(await page.locator(".change-row").count()).toBeGreaterThan(0);
      await page.goto(`${base}#/runs/${encodeURIComponent(RUN_B)}?tab=queue`);
      await page.locator('[data-testid="queue"][data-status="finished"]').waitFor();
      await screenshot(page, "export-queue");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
