// The matrix's drill-down from an eval to its cases, served and exported: a copy of examples/cases run for real (one
// eval, three cases, two scripted controls that each pass only the case whose answer they give). The eval's matrix row
// offers its cases; the case × candidate table shows each case's score as `openeval report --json` gives it, with the
// case's slot square opening its eval run.
import { cp, symlink } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { launchChromium, screenshot, sideBase, SIDES, withPage, type Side } from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

const ROOT = join(import.meta.dirname, "..", "..");

interface Summary {
  runId: string;
  models: { model: string; evals: { evalId: string; value: number; cases: { caseId: string; value: number }[] }[] }[];
}

let summary: Summary;
let viewer: Awaited<ReturnType<typeof startViewer>>;
let exported: string;
let browser: Browser;

beforeAll(async () => {
  const directory = await makeTempDir();
  await cp(join(ROOT, "examples", "cases"), directory, { recursive: true });
  // eval.ts imports zod, which the repository's node_modules holds.
  await symlink(join(ROOT, "node_modules"), join(directory, "node_modules"));
  const run = await runCli(["run", "--benchmark", directory]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  summary = JSON.parse((await runCli(["report", "--benchmark", directory, "--json"])).stdout) as Summary;
  viewer = await startViewer(directory);
  exported = join(await makeTempDir(), "export");
  exportRun(summary.runId, directory, exported);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  viewer?.process.kill();
  await viewer?.process.exited;
});

const baseOf = (side: Side) => sideBase(side, viewer.url, exported);

describe("the matrix's drill-down from an eval to its cases", () => {
  it.each(SIDES)("shows each case's score per candidate as the report gives it (%s)", async (side) => {
    await withPage(browser, async (page) => {
      await page.goto(`${baseOf(side)}#/runs/${encodeURIComponent(summary.runId)}?tab=matrix`);
      const drill = page.locator('[data-eval="capitals"]').getByTestId("drill-cases");
      expect(await drill.textContent()).toBe("3 cases ▸");
      await drill.click();
      const cases = page.getByRole("region", { name: "cases of capitals" });
      await cases.locator("tr[data-case]").first().waitFor();
      expect(await cases.locator("tr[data-case]").evaluateAll((rows) => rows.map((row) => row.dataset.case))).toEqual([
        "france",
        "japan",
        "italy",
      ]);
      for (const model of summary.models) {
        for (const expected of model.evals[0]!.cases) {
          const cell = cases.locator(`tr[data-case="${expected.caseId}"] td[data-candidate="${model.model}"]`);
          expect(Number(await cell.getAttribute("data-value")), `${model.model} ${expected.caseId}`).toBe(
            expected.value,
          );
        }
      }
      // paris earns france and nothing else: one case of three.
      expect(summary.models.find((model) => model.model === "control/paris")!.evals[0]!.cases).toEqual([
        expect.objectContaining({ caseId: "france", value: 1 }),
        expect.objectContaining({ caseId: "japan", value: 0 }),
        expect.objectContaining({ caseId: "italy", value: 0 }),
      ]);
      if (side === "served") await screenshot(page, "eval-cases");
      await cases.locator('tr[data-case="japan"] td[data-candidate="control/tokyo"] a.slot').click();
      await page.getByTestId("eval-run-case").waitFor();
      expect(await page.getByTestId("eval-run-case").textContent()).toBe("case japan ");
      expect(await page.getByTestId("candidate").textContent()).toBe("control/tokyo");
    });
  });

  it.each(SIDES)("says which eval it could not find (%s)", async (side) => {
    await withPage(browser, async (page) => {
      await page.goto(`${baseOf(side)}#/runs/${encodeURIComponent(summary.runId)}?tab=matrix&cases=nope`);
      await page.getByText(/the eval nope of run/).waitFor();
    });
  });
});
