// Grades the page by using it: the final workspace is restored into the verification container, where Chromium
// (through playwright-core) opens counter.html, clicks it and keeps a screenshot as an artifact.
import { readFile } from "node:fs/promises";
import type { JudgeContext } from "openeval";

export const criteria = {
  renders: "counter.html opens in Chromium and shows a count of 0",
  counts_clicks: "Three clicks on #increment make the count 3",
  screenshot: "A screenshot of the page after the clicks was kept (a PNG artifact)",
};

interface PageReport {
  loaded: boolean;
  initial: string | null;
  afterClicks: string | null;
  errors: string[];
}

export default async ({ verification }: JudgeContext) => {
  const result = await verification.run({
    revision: "final",
    timeoutMs: 300_000,
    // The judge's working directory is the eval folder; the check stays out of the candidate's workspace.
    files: { "check-page.mjs": await readFile("check-page.mjs", "utf8") },
    commands: [["bun", "/verification/check-page.mjs", "counter.html", "shot.png"]],
    artifacts: ["shot.png"],
  });
  const report = parseReport(result.stdout);
  const kept = result.artifacts.some((artifact) => artifact.path === "shot.png");
  const png = kept ? await verification.read(result, "shot.png") : null;
  return {
    scores: {
      renders: report?.loaded === true && report.initial === "0",
      counts_clicks: result.state === "completed" && result.exitCode === 0 && report?.afterClicks === "3",
      screenshot: png !== null && isPng(png),
    },
    verification: { id: result.id, state: result.state, exitCode: result.exitCode, stderr: result.stderr.slice(-2_000) },
    report,
  };
};

function parseReport(stdout: string): PageReport | null {
  const line = stdout.trim().split("\n").at(-1);
  try {
    return line ? (JSON.parse(line) as PageReport) : null;
  } catch {
    return null;
  }
}

function isPng(data: Uint8Array): boolean {
  return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => data[index] === byte);
}
