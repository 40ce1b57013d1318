// Integrity findings in a real browser, served and exported: a run written by the library's own writers whose first
// eval run's judgment found four findings (two protected paths changed, a probe for an answer key, a refused
// connection). The matrix flags that cell and no other; the eval run's page flags its header and lists the findings,
// and each citation lands on what it cites: the transcript's tool call, the diff's file, the refused connection.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INTEGRITY_FINDINGS,
  writeViewerFixture,
  type ViewerFixture,
} from "../../packages/openeval/src/view/fixtures/viewer-run.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { launchChromium, screenshot, sideBase, SIDES, withPage as withFreshPage, type Side } from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

const FLAG = "integrity: 4 findings (fail)";
const NARROW = { width: 820, height: 700 };

let fixture: ViewerFixture;
let viewer: Awaited<ReturnType<typeof startViewer>>;
let exported: string;
let browser: Browser;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 2,
    models: ["provider/alpha", "control/negative"],
    repetitions: 2,
    integrityFindings: true,
  });
  viewer = await startViewer(fixture.benchmarkDirectory);
  exported = join(await makeTempDir(), "export");
  exportRun(fixture.runId, fixture.benchmarkDirectory, exported);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  viewer?.process.kill();
  await viewer?.process.exited;
});

const baseOf = (side: Side) => sideBase(side, viewer.url, exported);
const flagged = () => fixture.evalRuns[0]!;
const runHash = () => `#/runs/${encodeURIComponent(fixture.runId)}`;

function withPage(viewport: { width: number; height: number }, test: (page: Page) => Promise<void>) {
  return withFreshPage(browser, test, { viewport, consoleErrors: true });
}

/** Whether the element is wholly on screen, and whether it is marked as the cited item. */
async function landedOn(page: Page, selector: string): Promise<{ onScreen: boolean; focused: boolean }> {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return {
      onScreen: box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight,
      focused: element.classList.contains("focused"),
    };
  });
}

describe("the matrix", () => {
  it.each(SIDES)(
    "flags the cell whose slot has findings, naming their count and worst severity, and no other (%s)",
    async (what) => {
      const base = baseOf(what);
      await withPage({ width: 1280, height: 800 }, async (page) => {
        await page.goto(`${base}${runHash()}?tab=matrix`);
        const cell = page.locator('.matrix-row[data-eval="eval-0001"] .matrix-cell[data-model="provider/alpha"]');
        const flag = cell.locator('[data-testid="integrity-flag"]');
        await flag.waitFor();
        expect(await flag.getAttribute("aria-label"), what).toBe(FLAG);
        expect(await flag.getAttribute("title")).toBe(FLAG);
        expect(await flag.getAttribute("data-severity")).toBe("fail");
        expect(await flag.isVisible()).toBe(true);
        // The one flagged slot says so too; every other cell has no flag.
        expect(await cell.locator('a.slot[data-repetition="1"]').getAttribute("title")).toContain(FLAG);
        expect(await cell.locator('a.slot[data-repetition="2"]').getAttribute("title")).not.toContain("integrity");
        await page.locator('.matrix-row[data-eval="eval-0002"]').waitFor();
        expect(await page.locator('[data-testid="integrity-flag"]').count()).toBe(1);
        expect(
          await page.locator('.matrix-cell[data-model="control/negative"] [data-testid="integrity-flag"]').count(),
        ).toBe(0);
        if (what === "served") await screenshot(page, "integrity-matrix", { viewport: true });
        // The flag opens the flagged eval run's page.
        await flag.click();
        await page.locator('[data-testid="integrity-findings"]').waitFor();
        expect(page.url()).toContain(`/eval-runs/${flagged().id}`);
      });
    },
  );
});

describe("the eval run's page", () => {
  it("flags its header and lists each finding's severity, kind, subject and what the candidate did, and the refused connections", async () => {
    await withPage(NARROW, async (page) => {
      await page.goto(`${viewer.url}${runHash()}/eval-runs/${flagged().id}`);
      const panel = page.locator('[data-testid="integrity-findings"]');
      await panel.waitFor();
      expect(await page.locator('h1 [data-testid="integrity-flag"]').getAttribute("aria-label")).toBe(FLAG);
      const rows = panel.locator('[data-testid="integrity-finding"]');
      expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-severity")))).toEqual([
        "fail",
        "fail",
        "warn",
        "warn",
      ]);
      const texts = await rows.allTextContents();
      for (const finding of INTEGRITY_FINDINGS) {
        const row = texts.find((text) => text.includes(finding.detail));
        expect(row, finding.detail).toBeDefined();
        expect(row).toContain(finding.kind);
        expect(row).toContain(finding.subject);
      }
      expect(await page.locator('[data-testid="refused-connections"] li').allTextContents()).toEqual([
        "example.com:443",
        "a request that was not a CONNECT",
      ]);
      // Nothing wider than the window.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
      await screenshot(page, "integrity-eval-run-panel");
    });
  });

  it.each(SIDES)("a tool citation brings that transcript step into view, marked (%s)", async (what) => {
    const base = baseOf(what);
    await withPage(NARROW, async (page) => {
      await page.goto(`${base}${runHash()}/eval-runs/${flagged().id}?tab=files`);
      const citation = page.locator('[data-kind="protected_path_changed"] a.citation[data-citation="tool"]');
      await citation.click();
      const step = '.tool-call[data-id="tool_2"]';
      await page.locator(step).waitFor();
      await expect.poll(() => landedOn(page, step), { message: what }).toEqual({ onScreen: true, focused: true });
      expect(await page.locator(step).getAttribute("data-tool")).toBe("edit");
      // Only the cited step is marked.
      expect(await page.locator(".tool-call.focused").count()).toBe(1);
      if (what === "served") await screenshot(page, "integrity-tool-citation", { viewport: true });
    });
  });

  it("a file citation opens the diff at that file, and an egress citation marks the refused connection", async () => {
    await withPage(NARROW, async (page) => {
      await page.goto(`${viewer.url}${runHash()}/eval-runs/${flagged().id}`);
      await page.locator('a.citation[data-citation="file"]').click();
      await expect.poll(() => landedOn(page, '[data-id="diff:.env"]')).toEqual({ onScreen: true, focused: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('a.citation[data-citation="egress"]').click();
      await expect.poll(() => landedOn(page, '[data-id="egress:0"]')).toEqual({ onScreen: true, focused: true });
      expect(await page.locator('[data-id="egress:1"]').getAttribute("class")).not.toContain("focused");
    });
  });

  it("shows no flag and no panel for an eval run whose judgment found nothing", async () => {
    await withPage(NARROW, async (page) => {
      await page.goto(`${viewer.url}${runHash()}/eval-runs/${fixture.evalRuns[1]!.id}`);
      await page.locator('[data-testid="transcript"]').waitFor();
      expect(await page.locator('[data-testid="integrity-flag"]').count()).toBe(0);
      expect(await page.locator('[data-testid="integrity-findings"]').count()).toBe(0);
      expect(await page.locator('[data-testid="refused-connections"]').count()).toBe(0);
    });
  });
});
