// The category pictures in a real browser, served and exported: a run of three priced controls over four evals whose
// criteria fall in five categories (test/helpers/category-benchmark.ts). The run page draws a radar per model, the
// category × model heat map and the scorecard, each named for what it is, with the numbers of the API's overview on
// their marks; the scorecard downloads as a PNG drawn in the browser and as SVG, from the server and from file://.
// A run without categories gets the scorecard only. Screenshots and the downloaded PNG go to test-artifacts/viewer/.
import { readdirSync } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeViewerFixture, type ViewerFixture } from "../../packages/openeval/src/view/fixtures/viewer-run.ts";
import type { LeaderboardRow, RunOverview } from "../../packages/openeval/src/view/index.ts";
import { runCli } from "../helpers/cli.ts";
import { CATEGORY_MODELS, categoryBenchmark } from "../helpers/category-benchmark.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";
import {
  ARTIFACTS,
  launchChromium,
  screenshot,
  sideBase,
  SIDES,
  withPage as withFreshPage,
  type Side,
} from "./chromium.ts";
import { exportRun, startViewer } from "./start-viewer.ts";

let directory: string;
let runId: string;
let overview: RunOverview;
let viewer: Awaited<ReturnType<typeof startViewer>>;
let exported: string;
let plain: ViewerFixture;
let plainViewer: Awaited<ReturnType<typeof startViewer>>;
let browser: Browser;

beforeAll(async () => {
  directory = await writeTree(categoryBenchmark());
  const run = await runCli(["run", "--benchmark", directory]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  runId = readdirSync(join(directory, "results"))[0]!;
  viewer = await startViewer(directory);
  const response = await fetch(`${viewer.url}api/runs/${encodeURIComponent(runId)}`);
  expect(response.status).toBe(200);
  overview = (await response.json()) as RunOverview;
  exported = join(await makeTempDir(), "export");
  exportRun(runId, directory, exported);
  plain = await writeViewerFixture(await makeTempDir(), {
    evals: 2,
    models: ["control/positive", "p/model"],
    repetitions: 2,
  });
  plainViewer = await startViewer(plain.benchmarkDirectory);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const server of [viewer, plainViewer]) {
    server?.process.kill();
    await server?.process.exited;
  }
});

const runPage = (side: Side) => `${sideBase(side, viewer.url, exported)}#/runs/${encodeURIComponent(runId)}`;

/** A page that fails the test on any error; window.blobTypes lists each Blob it made a URL for (what a download is). */
function withPage(test: (page: Page) => Promise<void>, width = 1280) {
  return withFreshPage(browser, test, {
    viewport: { width, height: 900 },
    consoleErrors: true,
    acceptDownloads: true,
    prepare: (page) =>
      page.addInitScript(() => {
        const types: string[] = [];
        (window as unknown as { blobTypes: string[] }).blobTypes = types;
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (object: Blob | MediaSource) => {
          if (object instanceof Blob) types.push(object.type);
          return create(object);
        };
      }),
  });
}

/** An attribute as React writes a number (or "" for none), to compare with the API's numbers exactly. */
const attribute = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
const dataOf = (page: Page, selector: string, names: string[]) =>
  page
    .locator(selector)
    .evaluateAll(
      (elements, keys) => elements.map((element) => keys.map((key) => element.getAttribute(`data-${key}`) ?? "")),
      names,
    );
const candidateOf = (model: { model: string; variant?: string }) =>
  model.variant ? `${model.model} [${model.variant}]` : model.model;

/** Every category score of the overview: category, candidate, score, bounds, CI, as attributes. */
function categoryNumbers(): string[][] {
  return overview.categories.flatMap((entry) =>
    entry.models.map((model) => [
      entry.category,
      candidateOf(model),
      attribute(model.score.value),
      attribute(model.score.lower),
      attribute(model.score.upper),
      attribute(model.interval?.lower),
      attribute(model.interval?.upper),
    ]),
  );
}

const byName = (rows: string[][]) => [...rows].sort((a, b) => a.join("\u0000").localeCompare(b.join("\u0000")));
const ranked = () =>
  [...overview.leaderboard].sort((a, b) => (b.score.value ?? b.score.lower) - (a.score.value ?? a.score.lower));
const rowNumbers = (row: LeaderboardRow) => [
  row.candidate,
  attribute(row.score.value),
  attribute(row.ci?.lower),
  attribute(row.ci?.upper),
  attribute(row.costUSD),
];

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The drawn boxes of the texts in `svg` and of the svg itself. */
async function textBoxes(page: Page, selector: string): Promise<{ texts: (Rect & { text: string })[]; svg: Rect }[]> {
  return page.locator(selector).evaluateAll((svgs) =>
    svgs.map((svg) => {
      const rect = (node: Element) => {
        const { left, top, right, bottom } = node.getBoundingClientRect();
        return { left, top, right, bottom };
      };
      return {
        svg: rect(svg),
        texts: Array.from(svg.querySelectorAll("text"), (node) => ({ ...rect(node), text: node.textContent ?? "" })),
      };
    }),
  );
}

/** No text over another, every text inside its picture. */
async function expectClearTexts(page: Page, selector: string): Promise<void> {
  const overlap = (a: Rect, b: Rect) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  for (const { texts, svg } of await textBoxes(page, selector)) {
    expect(texts.length, `${selector} has texts`).toBeGreaterThan(0);
    for (const [index, text] of texts.entries()) {
      expect(
        text.left >= svg.left - 0.5 && text.right <= svg.right + 0.5 && text.top >= svg.top - 0.5,
        `${selector}: "${text.text}" inside`,
      ).toBe(true);
      expect(text.bottom <= svg.bottom + 0.5, `${selector}: "${text.text}" inside`).toBe(true);
      for (const other of texts.slice(index + 1))
        expect(overlap(text, other), `${selector}: "${text.text}" over "${other.text}"`).toBe(false);
    }
  }
}

async function download(page: Page, button: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: button }).click(),
  ]);
  expect(await download.failure()).toBeNull();
  return { download, bytes: await readFile((await download.path())!) };
}

describe("the category pictures", () => {
  it("the fixture run has categories with CIs and a cost for every model", () => {
    expect(overview.categories.map((entry) => entry.category)).toEqual([
      "accuracy",
      "speed",
      "tone",
      "format",
      "safety",
    ]);
    expect(overview.leaderboard.map((row) => row.candidate).sort()).toEqual([...CATEGORY_MODELS].sort());
    for (const entry of overview.categories)
      for (const model of entry.models) expect(model.interval, `${entry.category} × ${model.model}`).not.toBeNull();
    for (const row of overview.leaderboard) expect(row.costUSD).toBeGreaterThan(0);
  });

  it.each(SIDES)("draw a radar per model with the API's category scores, bounds and CIs (%s)", async (side) => {
    await withPage(async (page) => {
      await page.goto(runPage(side));
      const names = ranked().map((row) => row.candidate);
      for (const candidate of names) await page.getByRole("img", { name: `category radar of ${candidate}` }).waitFor();
      const radars = page.locator('svg[aria-label^="category radar of "]');
      expect(await radars.evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute("data-candidate")))).toEqual(names);
      const marks: string[][] = [];
      for (const candidate of names) {
        const radar = page.getByRole("img", { name: `category radar of ${candidate}` });
        const rows = await radar
          .locator(".radar-mark")
          .evaluateAll((elements) =>
            elements.map((element) =>
              ["category", "score", "lower", "upper", "ci-lower", "ci-upper"].map(
                (key) => element.getAttribute(`data-${key}`) ?? "",
              ),
            ),
          );
        marks.push(...rows.map(([category, ...numbers]) => [category!, candidate, ...numbers]));
        // The score polygon, a dot and a CI per category: drawn large enough for the detail.
        expect(await radar.locator(".radar-score").count()).toBe(1);
        expect(await radar.locator(".radar-dot").count()).toBe(overview.categories.length);
        expect(await radar.locator(".radar-whisker").count()).toBe(overview.categories.length);
        expect(await radar.locator("text.mark-label").allTextContents()).toEqual(
          overview.categories.map((entry) => entry.category),
        );
      }
      expect(byName(marks)).toEqual(byName(categoryNumbers()));
      await expectClearTexts(page, 'svg[aria-label^="category radar of "]');
      if (side === "served") {
        await page.locator(".category-pictures").scrollIntoViewIfNeeded();
        await screenshot(page, "category-radars", { viewport: true });
      }
    });
  });

  it.each(SIDES)("draw the category × model heat map with the API's numbers in its cells (%s)", async (side) => {
    await withPage(async (page) => {
      await page.goto(runPage(side));
      const heatmap = page.getByRole("img", { name: /category heatmap/i });
      await heatmap.waitFor();
      const cells = await heatmap
        .locator(".heatmap-cell")
        .evaluateAll((elements) =>
          elements.map((element) =>
            ["category", "candidate", "score", "lower", "upper", "ci-lower", "ci-upper"].map(
              (key) => element.getAttribute(`data-${key}`) ?? "",
            ),
          ),
        );
      expect(byName(cells)).toEqual(byName(categoryNumbers()));
      // The score in each cell as the table writes it, with its CI on a second line.
      const careful = overview.categories[0]!.models.find((model) => model.model === "control/careful")!;
      const cell = heatmap.locator('.heatmap-cell[data-category="accuracy"][data-candidate="control/careful"]');
      expect(await cell.locator(".heat-value").textContent()).toBe(careful.score.value!.toFixed(1));
      expect(await cell.locator(".heat-range").textContent()).toBe(
        `${careful.interval!.lower.toFixed(1)}–${careful.interval!.upper.toFixed(1)}`,
      );
      await expectClearTexts(page, '[data-testid="category-heatmap"] svg');
      if (side === "served") {
        await page.getByTestId("category-heatmap").scrollIntoViewIfNeeded();
        await screenshot(page, "category-heatmap", { viewport: true });
      }
    });
  });

  it.each(SIDES)(
    "draw the scorecard with the leaderboard's scores, CIs and costs and the category scores (%s)",
    async (side) => {
      await withPage(async (page) => {
        await page.goto(runPage(side));
        const scorecard = page.getByRole("img", { name: "scorecard" });
        await scorecard.waitFor();
        expect(await dataOf(page, ".scorecard-row", ["candidate", "score", "ci-lower", "ci-upper", "cost"])).toEqual(
          ranked().map(rowNumbers),
        );
        const cells = await scorecard
          .locator(".scorecard-row")
          .evaluateAll((rows) =>
            rows.flatMap((row) =>
              Array.from(row.querySelectorAll(".scorecard-category"), (cell) => [
                cell.getAttribute("data-category") ?? "",
                row.getAttribute("data-candidate") ?? "",
                cell.getAttribute("data-score") ?? "",
                cell.getAttribute("data-ci-lower") ?? "",
                cell.getAttribute("data-ci-upper") ?? "",
              ]),
            ),
          );
        expect(byName(cells)).toEqual(
          byName(categoryNumbers().map((entry) => [...entry.slice(0, 3), ...entry.slice(5)])),
        );
        await expectClearTexts(page, '[data-testid="scorecard"] svg');
        if (side === "served") {
          await page.getByTestId("scorecard").scrollIntoViewIfNeeded();
          await screenshot(page, "scorecard", { viewport: true });
        }
      });
    },
  );

  it.each(SIDES)("download the scorecard as a PNG drawn in the browser and as SVG (%s)", async (side) => {
    await withPage(async (page) => {
      await page.goto(runPage(side));
      const svg = page.getByRole("img", { name: "scorecard" });
      await svg.waitFor();
      const size = await svg.evaluate((element) => {
        const box = (element as SVGSVGElement).viewBox.baseVal;
        return { width: box.width, height: box.height };
      });

      const png = await download(page, "Download PNG");
      expect(png.download.suggestedFilename()).toBe(`scorecard-${runId.replace(/[^A-Za-z0-9._-]+/g, "-")}.png`);
      expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      // IHDR: drawn at twice the card's size.
      expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([2 * size.width, 2 * size.height]);
      // Not a blank canvas: decoded, a good share of its pixels are the card's ink and colours.
      const inked = await page.evaluate(async (base64) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        [canvas.width, canvas.height] = [image.width, image.height];
        const context = canvas.getContext("2d")!;
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, image.width, image.height);
        let count = 0;
        for (let index = 0; index < data.length; index += 4)
          if (data[index]! < 200 || data[index + 1]! < 200 || data[index + 2]! < 200) count++;
        return count / (image.width * image.height);
      }, png.bytes.toString("base64"));
      expect(inked).toBeGreaterThan(0.05);
      if (side === "served") await copyFile((await png.download.path())!, join(ARTIFACTS, "scorecard-download.png"));

      const file = await download(page, "Download SVG");
      expect(file.download.suggestedFilename()).toMatch(/^scorecard-.+\.svg$/);
      const text = file.bytes.toString("utf8");
      expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
      expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
      // A document of its own with the page's numbers on it.
      const parsed = await page.evaluate((source) => {
        const document = new DOMParser().parseFromString(source, "image/svg+xml");
        return {
          error: document.querySelector("parsererror")?.textContent ?? null,
          size: [document.documentElement.getAttribute("width"), document.documentElement.getAttribute("height")],
          rows: Array.from(document.querySelectorAll(".scorecard-row"), (row) =>
            ["candidate", "score", "ci-lower", "ci-upper", "cost"].map((key) => row.getAttribute(`data-${key}`) ?? ""),
          ),
        };
      }, text);
      expect(parsed).toEqual({
        error: null,
        size: [String(size.width), String(size.height)],
        rows: ranked().map(rowNumbers),
      });
      expect(await page.evaluate(() => (window as unknown as { blobTypes: string[] }).blobTypes)).toEqual([
        "image/png",
        "image/svg+xml",
      ]);
    });
  });

  it("keep to an 820 px window: radars one under another as needed, the scorecard scaled to fit", async () => {
    await withPage(async (page) => {
      await page.goto(runPage("served"));
      await page.getByRole("img", { name: "scorecard" }).waitFor();
      await page.getByRole("img", { name: /category heatmap/i }).waitFor();
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await expectClearTexts(page, 'svg[aria-label^="category radar of "]');
      await page.locator(".category-pictures").scrollIntoViewIfNeeded();
      await screenshot(page, "category-pictures-820", { viewport: true });
    }, 820);
  });
});

describe("a run without categories", () => {
  it("shows the scorecard of its models, and no radar or heat map", async () => {
    await withPage(async (page) => {
      await page.goto(`${plainViewer.url}#/runs/${encodeURIComponent(plain.runId)}`);
      const scorecard = page.getByRole("img", { name: "scorecard" });
      await scorecard.waitFor();
      const answer = (await (
        await fetch(`${plainViewer.url}api/runs/${encodeURIComponent(plain.runId)}`)
      ).json()) as RunOverview;
      expect(answer.categories).toEqual([]);
      const rows = [...answer.leaderboard].sort(
        (a, b) => (b.score.value ?? b.score.lower) - (a.score.value ?? a.score.lower),
      );
      expect(await dataOf(page, ".scorecard-row", ["candidate", "score", "ci-lower", "ci-upper", "cost"])).toEqual(
        rows.map(rowNumbers),
      );
      expect(await scorecard.locator(".scorecard-category").count()).toBe(0);
      expect(await page.getByRole("img", { name: /category radar/ }).count()).toBe(0);
      expect(await page.getByRole("img", { name: /category heatmap/i }).count()).toBe(0);
      await expectClearTexts(page, '[data-testid="scorecard"] svg');
    });
  });
});
