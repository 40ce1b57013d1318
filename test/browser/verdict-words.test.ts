// The viewer words a run's verdict once, as the CLI does: the queue's "finished" banner, the run header and the
// leaderboard's verdict panel agree. The run: a real model that passes and a control slot left unjudged — the verdict
// passes (controls never enter it) but the run is not complete, so the CLI says "incomplete" and exits 3. Its runner
// recorded how its invocation ended with the verdict's status, "pass"; the banner once showed that word.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  recordInvocationFinished,
  recordInvocationStarted,
  ResultsStore,
} from "../../packages/openeval/src/records/index.ts";
import { formatSummary } from "../../packages/openeval/src/report/index.ts";
import { exitCodeFor } from "../../packages/openeval/src/results/index.ts";
import { readResults } from "../../packages/openeval/src/summary/index.ts";
import type { RunOverview } from "../../packages/openeval/src/view/index.ts";
import { recordedBenchmark, RUN_ID } from "../helpers/recorded-benchmark.ts";
import { launchChromium, screenshot, watchErrors } from "./chromium.ts";
import { startViewer } from "./start-viewer.ts";

let browser: Browser;
let viewer: { url: string; process: ReturnType<typeof Bun.spawn> };
let directory: string;

beforeAll(async () => {
  directory = await recordedBenchmark(
    ["p/m", "control/negative"],
    (model) => (model === "p/m" ? 1 : 0),
    (repetition, model) => model === "control/negative" && repetition === 2,
  );
  const store = ResultsStore.open(join(directory, "results", RUN_ID));
  recordInvocationStarted(store, {
    invocation: "inv_1",
    startedAt: "2026-12-01T10:00:00.000Z",
    pid: 1,
    concurrency: 2,
    maxCostUSD: null,
    estimateUSD: null,
    work: [],
  });
  recordInvocationFinished(store, {
    invocation: "inv_1",
    finishedAt: "2026-12-01T10:05:00.000Z",
    complete: false,
    verdict: "pass",
  });
  store.close();
  viewer = await startViewer(directory);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  viewer?.process.kill();
  await viewer?.process.exited;
});

describe("the verdict's words in the viewer", () => {
  it("are the CLI's, in the queue banner, the run header and the verdict panel alike", async () => {
    // What the CLI prints and exits with for this run.
    const summary = await readResults(join(directory, "results", RUN_ID));
    expect(exitCodeFor(summary.verdict, summary.complete)).toBe(3);
    expect(formatSummary(summary)).toContain("Verdict: incomplete (some slots are not judged)");
    const overview = (await (await fetch(`${viewer.url}api/runs/${RUN_ID}`)).json()) as RunOverview;
    expect(overview.verdictWords).toEqual({ headline: "incomplete", reason: "some slots are not judged" });

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    try {
      await page.goto(`${viewer.url}#/runs/${RUN_ID}?tab=queue`);
      const banner = page.locator('[data-testid="queue-status"]');
      await banner.locator("[data-headline]").waitFor();
      const headline = async (selector: string) =>
        page.locator(`${selector} [data-headline]`).getAttribute("data-headline");
      expect(await headline('[data-testid="queue-verdict"]')).toBe("incomplete");
      expect(await headline('[data-testid="run-verdict"]')).toBe("incomplete");
      expect(await banner.textContent()).toContain("verdict incomplete some slots are not judged");
      expect(await banner.textContent()).not.toMatch(/verdict pass/);
      await screenshot(page, "verdict-words-queue");
      await page.goto(`${viewer.url}#/runs/${RUN_ID}?tab=leaderboard`);
      await page.locator('[data-testid="verdict-panel"]').waitFor();
      expect(await headline('[data-testid="verdict-panel"] .verdict-head')).toBe("incomplete");
      expect(await page.locator('[data-testid="verdict-reason"]').textContent()).toBe("some slots are not judged");
      // A contributor with nothing to check says so, in the CLI's words, never a green "pass".
      expect(formatSummary(summary)).toContain("gates      nothing gated (no gates configured)");
      const gates = page.locator('[data-contributor="gates"]');
      expect(await gates.locator(".badge").first().textContent()).toBe("nothing gated");
      expect(await gates.getAttribute("class")).not.toContain("status-pass");
      // Every contributor the CLI reports is listed, in its order and words: integrity checked no finding here.
      const contributors = page.locator("[data-contributor]");
      expect(
        await contributors.evaluateAll((items) => items.map((item) => item.getAttribute("data-contributor"))),
      ).toEqual(summary.verdict.contributors.map((contributor) => contributor.id));
      expect(await contributors.locator(".badge").allTextContents()).toEqual(
        summary.verdict.contributors.map((contributor) => contributor.word),
      );
      expect(await page.locator('[data-contributor="integrity"] .badge').textContent()).toBe("nothing checked");
      // The real model's own part passed; the control is not in the verdict.
      expect(await page.locator('[data-testid="leaderboard"] [data-testid="verdict"]').allTextContents()).toEqual([
        "pass",
        "not in verdict",
      ]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
