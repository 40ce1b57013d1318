// Runs INSIDE the verification container (judge.ts passes it as a check file): opens the candidate's page in
// Chromium through playwright-core, reads #count, clicks #increment three times, reads it again, saves a
// screenshot. Prints one JSON line; exits 1 when the page does not count.
import { chromium } from "playwright-core";

const [page = "counter.html", shot = "shot.png"] = process.argv.slice(2);
const report = { loaded: false, initial: null, afterClicks: null, errors: [] };
// The container is the sandbox; Chromium's own cannot start under no-new-privileges.
const browser = await chromium.launch({
  executablePath: process.env.OPENEVAL_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
});
try {
  const tab = await browser.newPage({ viewport: { width: 480, height: 320 } });
  tab.on("pageerror", (error) => report.errors.push(`page error: ${error.message}`));
  await tab.goto(`file://${process.cwd()}/${page}`, { waitUntil: "load", timeout: 10_000 });
  report.loaded = true;
  const count = async () => (await tab.locator("#count").textContent({ timeout: 2_000 }))?.trim() ?? null;
  report.initial = await count();
  for (let click = 0; click < 3; click++) await tab.locator("#increment").click({ timeout: 2_000 });
  report.afterClicks = await count();
  await tab.screenshot({ path: shot });
} catch (error) {
  report.errors.push(String(error?.message ?? error).split("\n")[0]);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
process.exit(report.initial === "0" && report.afterClicks === "3" ? 0 : 1);
