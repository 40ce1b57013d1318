// openeval-screenshot <page> <out.png> [width] [height]: renders a page (a path inside the container or a file:// URL)
// with Debian's Chromium through playwright-core, saves a PNG, and prints {title, text} of the rendered page as JSON.
import { resolve } from "node:path";
import { chromium } from "playwright-core";

const [page, out, width = "1024", height = "768"] = process.argv.slice(2);
if (!page || !out) {
  console.error("usage: openeval-screenshot <page.html | file:// URL> <out.png> [width] [height]");
  process.exit(2);
}
const url = /^[a-z]+:\/\//.test(page) ? page : `file://${resolve(page)}`;
// The container is the sandbox: Chromium's own sandbox cannot start under no-new-privileges and seccomp.
const browser = await chromium.launch({
  executablePath: process.env.OPENEVAL_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
});
try {
  const tab = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
  await tab.goto(url, { waitUntil: "load" });
  await tab.screenshot({ path: out });
  console.log(
    JSON.stringify({ title: await tab.title(), text: await tab.evaluate(() => document.body?.innerText ?? "") }),
  );
} finally {
  await browser.close();
}
