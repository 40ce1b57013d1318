// A judge panel and a person's review in a real browser, served and exported: a run of a control candidate graded by
// control/judge and control/judge#harsh, which disagree on `tone`. The run page lists each criterion's α with `tone`
// unreliable; the judge-run page shows both judgments with their own scores and reasons beside the combination, and
// flags `tone`. A review recorded from that page decides `tone`, with the judges' score beside it; a read-only viewer
// and an export offer no form.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";
import { CONTROL_PANEL_BENCHMARK } from "../helpers/judge-panel-benchmark.ts";
import { launchChromium, screenshot, sideBase, SIDES, withPage, type Side } from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

let directory: string;
let runId: string;
let judgeRun: JudgeRun;
let viewer: Awaited<ReturnType<typeof startViewer>>;
let readOnly: Awaited<ReturnType<typeof startViewer>>;
let exported: string;
let browser: Browser;

beforeAll(async () => {
  directory = await writeTree(CONTROL_PANEL_BENCHMARK);
  const run = await runCli(["run", "--benchmark", directory]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  runId = readdirSync(join(directory, "results"))[0]!;
  const store = ResultsStore.open(join(directory, "results", runId), { readonly: true });
  judgeRun = store.judgeRuns()[0]!;
  store.close();
  viewer = await startViewer(directory);
  readOnly = await startViewer(directory, ["--read-only"]);
  exported = join(await makeTempDir(), "export");
  exportRun(runId, directory, exported);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const server of [viewer, readOnly]) {
    server?.process.kill();
    await server?.process.exited;
  }
});

const baseOf = (side: Side) => sideBase(side, viewer.url, exported);

describe("judge agreement on the run page", () => {
  it.each(SIDES)("lists each criterion's α, with the one the judges disagree on unreliable (%s)", async (side) => {
    await withPage(browser, async (page) => {
      await page.goto(`${baseOf(side)}#/runs/${encodeURIComponent(runId)}`);
      const table = page.getByRole("region", { name: "judge agreement" });
      await table.getByTestId("judge-agreement").waitFor();
      const tone = table.locator('tr[data-criterion="notes/tone"]');
      expect(await tone.getAttribute("data-unreliable")).toBe("true");
      expect(await tone.locator("td").nth(2).textContent()).toBe("-0.50");
      expect(await tone.getByTestId("unreliable").textContent()).toBe("unreliable");
      expect(await table.locator('tr[data-criterion="notes/clear"]').getAttribute("data-unreliable")).toBe("false");
      expect(await table.getByTestId("agreement-effect").textContent()).toContain("Unreliable criteria (notes/tone)");
      if (side === "served") await screenshot(page, "judge-agreement");
    });
  });
});

describe("the judge-run page", () => {
  it.each(SIDES)("shows every judgment's own scores and reasons beside the combination (%s)", async (side) => {
    await withPage(browser, async (page) => {
      await page.goto(
        `${baseOf(side)}#/runs/${encodeURIComponent(runId)}/judge-runs/${encodeURIComponent(judgeRun.id)}`,
      );
      const panel = page.getByTestId("judge-panel");
      await panel.waitFor();
      const harsh = panel.locator('[data-judge="control/judge#harsh"]');
      expect(await panel.locator("[data-judge]").count()).toBe(2);
      expect(await harsh.locator('[data-criterion="tone"] .reason').textContent()).toBe("Curt.");
      expect(await panel.locator('[data-judge="control/judge"] [data-criterion="tone"] .reason').textContent()).toBe(
        "Friendly.",
      );
      const combined = page.getByTestId("criteria").locator('[data-criterion="tone"] .reason');
      expect(await combined.textContent()).toBe("mean of 2 judgments (control/judge 1, control/judge#harsh 0)");
      expect(await page.getByTestId("panel-unreliable").textContent()).toContain("agree too little on tone");
      if (side === "served") await screenshot(page, "judge-panel");
    });
  });
});

describe("reviewing from the judge-run page", () => {
  const judgeRunPage = (base: string) =>
    `${base}#/runs/${encodeURIComponent(runId)}/judge-runs/${encodeURIComponent(judgeRun.id)}`;

  it("records a review that decides the criterion, keeps the judges' score beside it, and lists it", async () => {
    await withPage(browser, async (page) => {
      await page.goto(judgeRunPage(viewer.url));
      const form = page.getByRole("form", { name: "review a criterion" });
      await form.locator('select[name="criterion"]').selectOption("tone");
      await form.locator('select[name="score"]').selectOption("1");
      await form.locator('textarea[name="reason"]').fill("The notes are friendly; the harsh judge misread them");
      await form.locator('input[name="by"]').fill("Ada");
      await form.getByRole("button", { name: "Record review" }).click();
      const tone = page.getByTestId("criteria").locator('[data-criterion="tone"]');
      await tone.locator("[data-review]").waitFor();
      expect(await tone.locator(".credit").textContent()).toBe("100%");
      expect(await tone.locator("[data-judged]").textContent()).toBe("50%");
      expect(await tone.locator("[data-review]").textContent()).toContain("Reviewed by Ada on");
      const history = page.getByTestId("review-history");
      expect(await history.locator("li").count()).toBe(1);
      expect(await history.textContent()).toContain("The notes are friendly; the harsh judge misread them");
      await screenshot(page, "judge-run-review");
    });
  });

  it("offers no form in a read-only viewer or an export, and still shows the scores", async () => {
    await withPage(browser, async (page) => {
      await page.goto(judgeRunPage(readOnly.url));
      await page.getByTestId("criteria").waitFor();
      expect(await page.getByRole("form", { name: "review a criterion" }).count()).toBe(0);
      expect(await page.getByText("This viewer is read-only").count()).toBe(1);
      await page.goto(judgeRunPage(`file://${join(exported, "index.html")}`));
      await page.getByTestId("criteria").waitFor();
      expect(await page.getByRole("form", { name: "review a criterion" }).count()).toBe(0);
    });
  });
});
