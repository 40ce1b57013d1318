// The viewer in a real browser over a run written by the library's own writers (no OpenCode, so it takes seconds):
// four models in two arms (current and the `concise` variant), one judgment that timed out, and the runner's queue.
// Served by `openeval view` and exported by `openeval export`, it checks that every page names a slot's variant, that
// plot labels stay clear of each other and inside their plots, that no page is wider than an 820 px window, and that
// a failed judgment, a missing page and a left-out file say what they mean. Screenshots go to test-artifacts/viewer/.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeViewerFixture, type ViewerFixture } from "../../packages/openeval/src/view/fixtures/viewer-run.ts";
import {
  JUDGE_ANSWER,
  PROVIDER_REJECTION,
  REJECTION,
} from "../../packages/openeval/src/view/fixtures/judge-session.ts";
import type { RunOverview } from "../../packages/openeval/src/view/index.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { launchChromium, screenshot, watchErrors } from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

const MODELS = [
  "control/positive",
  "control/negative",
  "openai/gpt-4.1-mini-2025-04-14",
  "anthropic/claude-sonnet-4-5-20250929",
];
const NARROW = { width: 820, height: 900 };

let fixture: ViewerFixture;
let viewer: Awaited<ReturnType<typeof startViewer>>;
let exported: string;
let browser: Browser;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 3,
    models: MODELS,
    variants: ["concise"],
    repetitions: 2,
    failedJudge: "timed_out",
    invocation: true,
    engines: ["a", "b"],
  });
  viewer = await startViewer(fixture.benchmarkDirectory);
  exported = join(await makeTempDir(), "export");
  exportRun(fixture.runId, fixture.benchmarkDirectory, exported, ["--allow-artifact", "slugify.js"]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  viewer?.process.kill();
});

async function newPage(viewport = NARROW): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
  // A console error (a failed request among them) is a broken page too.
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return { page, errors };
}

const runPage = (query: string) => `${viewer.url}#/runs/${encodeURIComponent(fixture.runId)}${query}`;
/** The eval run of a slot: the fixture's first eval, `model` in `variant` (undefined: current), repetition 2. */
const slotOf = (model: string, variant = "current") =>
  fixture.evalRuns.find(
    (run) =>
      run.slot.evalId === "eval-0001" &&
      run.slot.model === model &&
      run.slot.variant === variant &&
      run.slot.repetition === 2,
  )!;

/** The page is no wider than its window: nothing to scroll sideways. */
async function expectNoOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what} is no wider than the window`).toBeLessThanOrEqual(clientWidth);
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The drawn boxes of a plot's labels, of its marks and of the drawing, once the plot is laid out for the width it has
 * (its drawing is then as wide in the page as in its own units).
 */
async function plotBoxes(
  page: Page,
  testId: string,
): Promise<{ labels: (Rect & { lines: string[] })[]; marks: Rect[]; drawing: Rect }> {
  const svg = page.locator(`[data-testid="${testId}"] svg`);
  await svg.waitFor();
  await expect
    .poll(
      () =>
        svg.evaluate((element) =>
          Math.abs((element as SVGSVGElement).viewBox.baseVal.width - element.getBoundingClientRect().width),
        ),
      { message: `${testId} is laid out for its width` },
    )
    .toBeLessThan(1);
  return svg.evaluate((element) => {
    const rect = (node: Element) => {
      const { left, top, right, bottom } = node.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    return {
      labels: Array.from(element.querySelectorAll("text.mark-label"), (node) => {
        const lines = Array.from(node.querySelectorAll("tspan"), (line) => line.textContent ?? "");
        return { ...rect(node), lines: lines.length > 0 ? lines : [node.textContent ?? ""] };
      }),
      marks: Array.from(element.querySelectorAll("circle"), rect),
      drawing: rect(element),
    };
  });
}

const overlap = (a: Rect, b: Rect) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
const inside = (a: Rect, b: Rect) =>
  a.left >= b.left - 0.5 && a.top >= b.top - 0.5 && a.right <= b.right + 0.5 && a.bottom <= b.bottom + 0.5;

/** No label over another label or over a mark, every label inside its plot's drawing; gives each label's lines. */
async function expectClearLabels(page: Page, testId: string): Promise<string[][]> {
  const { labels, marks, drawing } = await plotBoxes(page, testId);
  expect(labels.length, `${testId} has labels`).toBeGreaterThan(0);
  for (const [index, label] of labels.entries()) {
    const name = label.lines.join(" ");
    expect(inside(label, drawing), `${testId}: "${name}" inside the plot`).toBe(true);
    for (const other of labels.slice(index + 1))
      expect(overlap(label, other), `${testId}: "${name}" over "${other.lines.join(" ")}"`).toBe(false);
    for (const mark of marks) expect(overlap(label, mark), `${testId}: "${name}" over a mark`).toBe(false);
  }
  return labels.map((label) => label.lines);
}

describe("variants are named on every page", () => {
  it("the finished queue lists current's and the concise arm's work of one slot as two different rows", async () => {
    const { page, errors } = await newPage();
    try {
      await page.goto(runPage("?tab=queue"));
      const rows = page.locator('[data-testid="queue-finished"] tr[data-kind="candidate"]');
      await rows.first().waitFor();
      const slots = await rows.locator("td:nth-child(2)").allTextContents();
      expect(slots).toContain("eval-0001 × control/negative #2");
      expect(slots).toContain("eval-0001 × control/negative [concise] #2");
      // Every candidate's eval run once: 3 evals × 4 models × 2 arms × 2 repetitions, no two rows alike.
      expect(slots).toHaveLength(48);
      expect(new Set(slots).size).toBe(48);
      await screenshot(page, "fixture-queue-variants", { viewport: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("the side-by-side page, the eval run and its judgment name the variant", async () => {
    const current = slotOf("control/negative");
    const concise = slotOf("control/negative", "concise");
    const { page, errors } = await newPage();
    try {
      await page.goto(
        `${viewer.url}#/runs/${encodeURIComponent(fixture.runId)}/side-by-side?a=${current.id}&b=${concise.id}`,
      );
      const name = (side: string) => page.locator(`[data-side="${side}"] [data-testid="candidate"]`);
      await name("b").waitFor();
      expect(await name("a").textContent()).toBe("control/negative");
      expect(await name("b").textContent()).toBe("control/negative [concise]");
      await screenshot(page, "fixture-side-by-side-variants", { viewport: true });
      await page.goto(`${viewer.url}#/runs/${encodeURIComponent(fixture.runId)}/eval-runs/${concise.id}`);
      await expect
        .poll(() => page.locator('h1 [data-testid="candidate"]').textContent())
        .toBe("control/negative [concise]");
      // Where it ran: the pool engine its record names.
      expect(concise.input.engine).toMatch(/^[ab]$/);
      expect(await page.locator('[data-testid="eval-run-engine"]').textContent()).toBe(concise.input.engine);
      const judgment = fixture.judgeRuns.find((run) => run.evalRunId === concise.id)!;
      await page.goto(`${viewer.url}#/runs/${encodeURIComponent(fixture.runId)}/judge-runs/${judgment.id}`);
      await expect
        .poll(() => page.locator('h1 [data-testid="candidate"]').textContent())
        .toBe("control/negative [concise]");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("plots and pages in an 820 px window", () => {
  it.each([NARROW.width, 1440])(
    "place every leaderboard label clear of the others and of the marks, inside its plot, each name whole (%i px)",
    async (width) => {
      const { page, errors } = await newPage({ ...NARROW, width });
      try {
        await page.goto(runPage("?tab=leaderboard"));
        await page.locator('[data-testid="score-plot"] .score-mark').first().waitFor();
        const overview = (await (
          await fetch(`${viewer.url}api/runs/${encodeURIComponent(fixture.runId)}`)
        ).json()) as RunOverview;
        // One name per candidate, none cut (a long one goes on two lines): a variant's row never reads as current's.
        const names = (await expectClearLabels(page, "score-plot")).map((lines) => lines.join(" "));
        expect(names.sort()).toEqual(overview.leaderboard.map((row) => row.candidate).sort());
        for (const id of ["cost-plot", "time-plot"]) {
          const named = (await expectClearLabels(page, id)).flat();
          // Marks drawn over each other share a label; whatever found no room is named in the note under the plot.
          const note = (await page.locator(`[data-testid="${id}"] .plot-note`).allTextContents()).join(" ");
          for (const row of overview.leaderboard.filter((entry) => entry.score.value !== null))
            expect(named.includes(row.candidate) || note.includes(row.candidate), `${id} names ${row.candidate}`).toBe(
              true,
            );
        }
        await expectNoOverflow(page, "the leaderboard");
        await screenshot(page, `fixture-leaderboard-${width}`);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it("label the compare page's b − a plot with its axis, each eval's name and value, and the mean", async () => {
    const { page, errors } = await newPage();
    try {
      await page.goto(
        runPage(
          `?tab=compare&against=models&ma=${encodeURIComponent("control/positive [concise]")}&mb=${encodeURIComponent("control/negative")}`,
        ),
      );
      await page.locator('[data-testid="compare-summary"]').waitFor();
      const labels = (await expectClearLabels(page, "difference-plot")).flat();
      // control/positive [concise] passes both criteria, control/negative one of two: −50 points on each eval.
      expect(labels).toContain("eval-0001, eval-0002, eval-0003 −50.0");
      expect(labels).toContain("mean −50.0 · 95% CI −50.0 to −50.0");
      expect(await page.locator('[data-testid="difference-plot"] .axis-label').textContent()).toBe(
        "b − a, points (0–100 scale)",
      );
      await expectNoOverflow(page, "the compare page");
      await screenshot(page, "fixture-compare-820");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("leave no page wider than the window", async () => {
    const { page, errors } = await newPage();
    const evalRun = slotOf("control/negative", "concise");
    try {
      for (const [what, hash] of [
        ["the runs", "#/"],
        ["the queue", `#/runs/${encodeURIComponent(fixture.runId)}?tab=queue`],
        ["the matrix", `#/runs/${encodeURIComponent(fixture.runId)}?tab=matrix`],
        ["the eval runs", `#/runs/${encodeURIComponent(fixture.runId)}?tab=eval-runs`],
        ["an eval run", `#/runs/${encodeURIComponent(fixture.runId)}/eval-runs/${evalRun.id}`],
        ["a judgment", `#/runs/${encodeURIComponent(fixture.runId)}/judge-runs/${fixture.judgeRuns[0]!.id}`],
        [
          "side by side",
          `#/runs/${encodeURIComponent(fixture.runId)}/side-by-side?a=${slotOf("control/negative").id}&b=${evalRun.id}`,
        ],
      ]) {
        await page.goto(`${viewer.url}${hash}`);
        await page.locator(".page > *").first().waitFor();
        await page.waitForLoadState("networkidle");
        await expectNoOverflow(page, what!);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("messages", () => {
  it("a timed-out judgment says it is not the candidate's failure and gives the command that judges it again", async () => {
    const failed = fixture.judgeRuns.find((run) => run.state === "timed_out")!;
    const command = `openeval rejudge ${failed.evalRunId} --run results/${fixture.runId}`;
    const { page, errors } = await newPage();
    try {
      for (const hash of [`judge-runs/${failed.id}`, `eval-runs/${failed.evalRunId}`]) {
        await page.goto(`${viewer.url}#/runs/${encodeURIComponent(fixture.runId)}/${hash}`);
        const notice = page.locator('[data-testid="judge-failure"]');
        await notice.waitFor();
        expect(await notice.textContent()).toMatch(/^The judge timed out: this is not the candidate's failure\./);
        expect(await notice.locator('[data-testid="rejudge-command"]').textContent()).toBe(command);
      }
      await screenshot(page, "fixture-judge-timed-out", { viewport: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("a failed judgment shows its judge's session like a transcript — the rejected submission and why, its answer — and its metrics, served and exported", async () => {
    const failed = fixture.judgeRuns.find((run) => run.state === "timed_out")!;
    const { page, errors } = await newPage({ width: 1280, height: 900 });
    try {
      for (const base of [viewer.url, `file://${join(exported, "index.html")}`]) {
        await page.goto(`${base}#/runs/${encodeURIComponent(fixture.runId)}/judge-runs/${failed.id}`);
        const session = page.locator("#judge-session");
        const rejected = session.locator('.tool-call[data-tool="judge_submit_judgment"]');
        await rejected.waitFor();
        expect(
          await session
            .locator(".tool-call")
            .evaluateAll((calls) => calls.map((call) => call.getAttribute("data-tool"))),
        ).toEqual(["judge_evidence", "judge_submit_judgment"]);
        expect(await rejected.locator(".tool-input").textContent()).toContain('"value": 1.5');
        expect(await rejected.locator(".tool-error").textContent()).toBe(REJECTION);
        expect(await session.locator(".message .error-box").textContent()).toBe(`APIError: ${PROVIDER_REJECTION}`);
        expect(await session.locator(".response-box .prose").textContent()).toBe(JUDGE_ANSWER);
        expect(await session.locator('[data-testid="judge-session-summary"]').textContent()).toBe(
          "4 requests (1 failed) · 3,900 in / 160 out tokens · $0 · model active 1.1 s",
        );
        const metric = (path: string) =>
          page.locator(`#judge-metrics [data-id="metric:${path}"] td.number`).textContent();
        expect([
          await metric("tokens.input"),
          await metric("tokens.output"),
          await metric("requests.failed"),
          await metric("timing.modelActiveMs"),
        ]).toEqual(["3,900", "160", "1", "1.1 s"]);
      }
      await screenshot(page, "fixture-judge-session");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("a page of something missing says what, in words, served and exported", async () => {
    const run = fixture.runId;
    const { page } = await newPage();
    const message = async (url: string) => {
      await page.goto(url);
      const box = page.locator('[role="alert"]');
      await box.waitFor();
      return box.textContent();
    };
    try {
      expect(await message(`${viewer.url}#/runs/no-such-run`)).toBe("Not found: run no-such-run. Back to the runs");
      expect(await message(`${viewer.url}#/runs/${encodeURIComponent(run)}/eval-runs/eval_nope`)).toBe(
        `Not found: eval run eval_nope (run ${run}). Back to the runs`,
      );
      expect(await message(`${viewer.url}#/runs/${encodeURIComponent(run)}/judge-runs/judge_nope`)).toBe(
        `Not found: judge run judge_nope (run ${run}). Back to the runs`,
      );
      await screenshot(page, "fixture-not-found", { viewport: true });
      const base = `file://${join(exported, "index.html")}`;
      expect(await message(`${base}#/runs/${encodeURIComponent(run)}/eval-runs/eval_nope`)).toBe(
        `Not in this export: eval run eval_nope (run ${run}). Back to the runs`,
      );
      expect(await message(`${base}#/runs/no-such-run`)).toBe("Not in this export: run no-such-run. Back to the runs");
    } finally {
      await page.close();
    }
  });

  it("an export's Files tab says why it left a file's contents out, as its Diff tab does, without a console error", async () => {
    const evalRun = fixture.evalRuns[0]!;
    const { page, errors } = await newPage();
    try {
      await page.goto(
        `file://${join(exported, "index.html")}#/runs/${encodeURIComponent(fixture.runId)}/eval-runs/${evalRun.id}?tab=files`,
      );
      await page.locator('.file-link[data-path="README.md"]').click();
      const leftOut = page.locator('[data-testid="left-out"]');
      await leftOut.waitFor();
      expect(await leftOut.textContent()).toBe(
        "The contents of README.md are left out: workspace file contents are left out of exports; `openeval export --allow-artifact <path>` includes a file (or a folder)",
      );
      expect(await page.locator('.file-link[data-path="README.md"] .badge').textContent()).toBe("left out");
      await screenshot(page, "fixture-export-files-left-out", { viewport: true });
      // --allow-artifact slugify.js: that one is there.
      await page.locator('.file-link[data-path="slugify.js"]').click();
      await expect.poll(() => page.locator('[data-testid="file-content"] .code').textContent()).toContain("/g");
      await page.goto(
        `file://${join(exported, "index.html")}#/runs/${encodeURIComponent(fixture.runId)}/eval-runs/${evalRun.id}?tab=diff`,
      );
      await expect
        .poll(() => page.locator('[data-testid="diff"]').textContent())
        .toContain("(the contents of .env are left out: workspace file contents are left out of exports");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
