// Headless Chromium for the browser tests: Debian's package (apt-get install chromium), never a downloaded build,
// started with the flags this machine kind needs (no sandbox as root, no background networking).
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM = process.env.OPENEVAL_CHROMIUM ?? "/usr/bin/chromium";
/** Screenshots of each main page, kept as test artifacts (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, "..", "..", "test-artifacts", "viewer");

/** Playwright starts it with a new, empty profile of its own. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set OPENEVAL_CHROMIUM`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Fails the test on any uncaught page error (a broken page must not pass because its elements happen to exist). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** The whole page (from the top, so the sticky bar stays on top), or with `viewport` what is on screen now. */
export async function screenshot(page: Page, name: string, options: { viewport?: boolean } = {}): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  if (!options.viewport) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: !options.viewport });
  return path;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Count the console's errors (a failed request among them) as the page's errors too. */
  consoleErrors?: boolean;
  acceptDownloads?: boolean;
  /** Runs before the test, e.g. an init script. */
  prepare?: (page: Page) => Promise<unknown>;
  /** The test provokes errors on purpose (a page of another site): they do not fail it. */
  errorsExpected?: boolean;
}

/** A fresh page of `browser` for `test`, closed after it; an error on the page fails the test. */
export async function withPage(
  browser: Browser,
  test: (page: Page) => Promise<void>,
  options: PageOptions = {},
): Promise<void> {
  const page = await browser.newPage({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    acceptDownloads: options.acceptDownloads,
  });
  const errors = watchErrors(page);
  if (options.consoleErrors)
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
  await options.prepare?.(page);
  try {
    await test(page);
    if (!options.errorsExpected) expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
}

/** The two ways a run's viewer is opened: served by `openeval view`, and an export opened from disk. */
export const SIDES = ["served", "exported"] as const;
export type Side = (typeof SIDES)[number];

/** Where a side's viewer starts: the server's URL, or the export's index.html. */
export function sideBase(side: Side, viewerUrl: string, exported: string): string {
  return side === "served" ? viewerUrl : `file://${join(exported, "index.html")}`;
}
