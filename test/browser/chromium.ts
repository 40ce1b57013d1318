// Headless Chromium for the browser tests: Debian's package (apt-get install chromium), never a downloaded build,
// started with the flags this machine kind needs (no sandbox as root, no background networking).
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

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
