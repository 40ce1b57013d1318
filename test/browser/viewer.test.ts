// The viewer in a real browser: the example benchmark (and examples/verification, whose judge keeps a screenshot
// from the sandboxed verification container) are run once with the scripted controls, served by `openeval view`
// and exported by `openeval export`; headless Chromium checks what a person would look at — the leaderboard's
// scores, the matrix, a transcript's tool calls, a judgment's reasons and citations, a verification screenshot —
// on the server and from file://. Each main page is saved under test-artifacts/viewer/.
// The benchmarks are copied under test-artifacts/ (inside the repository, so judges resolve `openeval`).
// OPENEVAL_BROWSER_EXAMPLE / OPENEVAL_BROWSER_VERIFICATION=<folder with results/> reuse runs already made.
import { cp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { readResults, type RunSummary } from "../../packages/openeval/src/summary/index.ts";
import type { EvalRunRow, JudgeRunDetail, Page as ApiPage } from "../../packages/openeval/src/view/index.ts";
import { runCli } from "../helpers/cli.ts";
import { launchChromium, screenshot, watchErrors } from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNS = join(ROOT, "test-artifacts", "browser-runs");

interface Served {
  benchmark: string;
  runId: string;
  url: string;
  exported: string;
  process: ReturnType<typeof Bun.spawn>;
}

let example: Served;
let verification: Served;
let summary: RunSummary;
let browser: Browser;

beforeAll(async () => {
  const exampleFolder =
    process.env.OPENEVAL_BROWSER_EXAMPLE ??
    (await runBenchmark("example", [join(ROOT, "benchmark.ts"), join(ROOT, "evals"), join(ROOT, "variants")]));
  const verificationFolder =
    process.env.OPENEVAL_BROWSER_VERIFICATION ??
    (await runBenchmark("verification", [
      join(ROOT, "examples", "verification", "benchmark.ts"),
      join(ROOT, "examples", "verification", "evals"),
    ]));
  example = await serveAndExport(exampleFolder);
  verification = await serveAndExport(verificationFolder);
  summary = await readResults(join(example.benchmark, "results", example.runId));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  example?.process.kill();
  verification?.process.kill();
});

/** A fresh copy of a benchmark under test-artifacts/, run once with `openeval run`. */
async function runBenchmark(name: string, sources: string[]): Promise<string> {
  const directory = join(RUNS, name);
  await rm(directory, { recursive: true, force: true });
  for (const source of sources) await cp(source, join(directory, source.split("/").pop()!), { recursive: true });
  const run = await runCli(["run", "--benchmark", directory], { timeoutMs: 1_500_000 });
  // A failing verdict or an incomplete run still leaves results to look at; a run that could not start does not.
  if (![0, 1, 3].includes(run.exitCode))
    throw new Error(`openeval run (${name}) exited ${run.exitCode}:\n${run.stderr}\n${run.stdout}`);
  return directory;
}

async function serveAndExport(benchmark: string): Promise<Served> {
  const runId = (await readdir(join(benchmark, "results"))).sort().at(-1)!;
  const exported = join(RUNS, `${runId}-export`);
  await rm(exported, { recursive: true, force: true });
  exportRun(runId, benchmark, exported, ["--allow-artifact", "slugify.js"]);
  return { benchmark, runId, exported, ...(await startViewer(benchmark)) };
}

async function api<T>(served: Served, path: string): Promise<T> {
  const response = await fetch(`${served.url}api/runs/${encodeURIComponent(served.runId)}/${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

async function slot(served: Served, evalId: string, model: string): Promise<EvalRunRow> {
  const page = await api<ApiPage<EvalRunRow>>(
    served,
    `eval-runs?eval=${evalId}&candidate=${encodeURIComponent(model)}`,
  );
  const row = page.items.find((item) => item.active && item.repetition === 1);
  expect(row, `${evalId} × ${model}`).toBeDefined();
  return row!;
}

async function open(page: Page, base: string, hash: string): Promise<void> {
  await page.goto(`${base}${hash}`);
  await page.waitForLoadState("load");
}

/** The same checks on the server and on the static export. */
function pagesOf(name: "server" | "export", base: (served: Served) => string) {
  const shot = (page: Page, label: string, viewport = false) =>
    screenshot(page, name === "server" ? label : `export-${label}`, { viewport });

  describe(`the viewer (${name})`, () => {
    let page: Page;
    let errors: string[];
    beforeAll(async () => {
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      errors = watchErrors(page);
    });
    afterAll(async () => {
      expect(errors, "uncaught errors in the page").toEqual([]);
      await page.close();
    });

    it("lists the run with its variant, and the leaderboard shows both controls in both arms with the run's scores", async () => {
      await open(page, base(example), "#/");
      await expect.poll(() => page.locator(`a:has-text("${example.runId}")`).count()).toBe(1);
      expect(await page.locator('[data-testid="run-variants"]').first().textContent()).toBe(
        "variants: current, concise",
      );
      await shot(page, "runs");
      await page.click(`a:has-text("${example.runId}")`);
      await page.waitForSelector('[data-testid="leaderboard"]');
      for (const model of ["control/positive", "control/negative"]) {
        for (const variant of ["current", "concise"]) {
          const expected = summary.models.find(
            (candidate) => candidate.model === model && (candidate.variant ?? "current") === variant,
          )!;
          const row = page.locator(`[data-testid="leaderboard"] tr[data-model="${model}"][data-variant="${variant}"]`);
          await expect
            .poll(() => row.locator('[data-testid="score"]').textContent())
            .toBe(expected.score.value === null ? "—" : `${expected.score.value.toFixed(1)}%`);
          expect(await row.locator(".tone-control").textContent()).toBe("control");
        }
      }
      expect(
        summary.models.find((model) => model.model === "control/positive" && model.variant === undefined)!.score.value,
      ).toBe(100);
      await shot(page, "leaderboard");
    });

    it("compares the variant with current for each model: the paired difference and its CI, as the summary gives it", async () => {
      await open(page, base(example), `#/runs/${encodeURIComponent(example.runId)}`);
      await page.waitForSelector('[data-testid="variant-comparisons"]');
      expect(summary.variantComparisons.length).toBe(2);
      for (const { model, variant, comparison } of summary.variantComparisons) {
        const row = page.locator(
          `[data-testid="variant-comparisons"] tr[data-model="${model}"][data-variant="${variant}"]`,
        );
        expect(await row.count()).toBe(1);
        // The controls play the same script in both arms: no difference.
        expect(comparison.paired.meanDifference).toBe(0);
        expect(await row.locator("td").nth(0).textContent()).toBe(`${model} [${variant}]`);
        expect(await row.locator("td").nth(1).textContent()).toBe("0.0");
      }
    });

    it("shows the eval × model matrix, and a square opens its eval run", async () => {
      await open(page, base(example), `#/runs/${encodeURIComponent(example.runId)}?tab=matrix`);
      await page.waitForSelector('[data-eval="fix-slugify"]');
      expect(await page.locator("[data-eval]").count()).toBe(summary.models[0]!.evals.length);
      const header = await page.locator(".matrix-head > div").allTextContents();
      expect(header.slice(1).sort()).toEqual([
        "control/negative",
        "control/negative [concise]",
        "control/positive",
        "control/positive [concise]",
      ]);
      await shot(page, "matrix");
      await page.click(
        '[data-eval="fix-slugify"] [data-model="control/positive"][data-variant="current"] a.slot[data-repetition="1"]',
      );
      await page.waitForSelector('[data-testid="transcript"]');
      expect(await page.locator("h1").textContent()).toContain("fix-slugify");
    });

    it("shows a transcript with its tool calls: inputs, outputs, status", async () => {
      const row = await slot(example, "fix-slugify", "control/positive");
      await open(page, base(example), `#/runs/${encodeURIComponent(example.runId)}/eval-runs/${row.id}`);
      await page.waitForSelector(".tool-call");
      expect(
        await page.locator(".tool-call").evaluateAll((calls) => calls.map((call) => call.getAttribute("data-tool"))),
      ).toEqual(["bash", "read", "edit", "bash"]);
      const first = page.locator(".tool-call").first();
      expect(await first.locator(".tool-input").textContent()).toContain("node --test");
      expect(await first.locator(".tool-output").textContent()).toContain("# fail 1");
      await shot(page, "transcript");
      await open(page, base(example), `#/runs/${encodeURIComponent(example.runId)}/eval-runs/${row.id}?tab=diff`);
      await page.waitForSelector(".diff-file");
      expect(await page.locator(".diff-add").first().textContent()).toContain("/g");
      await shot(page, "diff");
    });

    it("shows a judgment's reasons and citations, and a citation click lands on its target", async () => {
      const row = await slot(example, "incident-summary", "control/positive");
      await open(page, base(example), `#/runs/${encodeURIComponent(example.runId)}/judge-runs/${row.judgeRunId}`);
      const criterion = page.locator('[data-criterion="supported_summary"]');
      await criterion.waitFor();
      expect(await criterion.locator(".reason").textContent()).toMatch(/\S/);
      expect(await page.locator(".source").textContent()).toContain("json_shape");
      await shot(page, "judge-run");
      const citation = criterion.locator("a.citation").first();
      const target = new URL(
        (await citation.getAttribute("href"))!.replace("#", "http://x/"),
        "http://x/",
      ).searchParams.get("focus")!;
      await citation.click();
      const landed = page.locator(`[data-id="${target}"]`);
      await landed.waitFor();
      await expect.poll(() => landed.evaluate((element) => element.classList.contains("focused"))).toBe(true);
      await expect.poll(() => landed.isVisible()).toBe(true);
      const box = (await landed.boundingBox())!;
      expect(box.y + box.height > 0 && box.y < 900, "the cited item is scrolled into view").toBe(true);
      await shot(page, "citation-target", true);
    });

    it("shows the earlyStop checks of a stopped candidate, and the judgment its decisive check made", async () => {
      const row = await slot(example, "tidy-build", "control/negative");
      await open(page, base(example), `#/runs/${encodeURIComponent(example.runId)}/eval-runs/${row.id}`);
      const decided = page.locator('[data-testid="early-checks"] [data-testid="early-check"][data-outcome="decided"]');
      await decided.waitFor();
      expect(await page.locator('[data-testid="eval-run-state"]').textContent()).toBe("stopped");
      expect(await decided.locator(".badge").textContent()).toBe("decided");
      await shot(page, "early-stop");
      await decided.locator(`a[data-judge-run="${row.judgeRunId}"]`).click();
      const notice = page.locator('[data-testid="decided-early"]');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/Decided early by check \d+ on a snapshot of the running candidate/);
      const criterion = page.locator('[data-criterion="kept_sources"]');
      await criterion.waitFor();
      expect(await criterion.locator(".credit").textContent()).toBe("0%");
      expect(await page.locator('.file-link[data-path="rubric/submission.json"]').count()).toBe(1);
      await shot(page, "early-stop-judgment");
    });

    it("shows a verification receipt with its screenshot inline", async () => {
      const row = await slot(verification, "verify-page", "control/positive");
      const detail = await api<JudgeRunDetail>(verification, `judge-runs/${row.judgeRunId}`);
      expect(detail.verifications.length, "the verify-page judge kept a verification receipt").toBeGreaterThan(0);
      await open(
        page,
        base(verification),
        `#/runs/${encodeURIComponent(verification.runId)}/judge-runs/${row.judgeRunId}`,
      );
      const image = page.locator("img[data-artifact]").first();
      await image.waitFor();
      await expect
        .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await shot(page, "verification");
    });
  });
}

pagesOf("server", (served) => served.url);
pagesOf("export", (served) => `file://${join(served.exported, "index.html")}`);

describe("live updates (server)", () => {
  it("an open page shows new work as a runner records it, without reloading", async () => {
    const liveId = `${verification.runId}-live`;
    const copy = join(verification.benchmark, "results", liveId);
    await rm(copy, { recursive: true, force: true });
    await cp(join(verification.benchmark, "results", verification.runId), copy, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const store = ResultsStore.open(copy);
    try {
      await open(page, verification.url, `#/runs/${encodeURIComponent(liveId)}?tab=eval-runs`);
      const count = page.locator(".filters-count");
      await expect.poll(() => count.textContent()).toBe("2 eval runs");
      // A runner takes the run over: its heartbeat, then a new eval run that is still running.
      store.beat();
      const [first] = store.evalRuns();
      store.saveEvalRun({
        ...first!,
        id: "eval_live-0000",
        slot: { ...first!.slot, repetition: 2 },
        state: "running",
        evidence: null,
        metrics: null,
        completedAt: null,
        elapsedMs: null,
      });
      await expect.poll(() => count.textContent(), { timeout: 20_000 }).toBe("3 eval runs");
      await page.locator(".live").waitFor();
      await page.locator('[data-eval-run="eval_live-0000"]').waitFor();
      await screenshot(page, "live");
    } finally {
      store.close();
      await page.close();
      await rm(copy, { recursive: true, force: true });
    }
  });
});
