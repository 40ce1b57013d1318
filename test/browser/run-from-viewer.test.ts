// Starting runs from the viewer in a real browser. A copy of the example benchmark is run from its page: the plan
// shows the work and its maximum, Start waits for the confirmation, the run page opens live and the run finishes with
// the results a CLI run of the same selection gives. A forged request from another site starts nothing, a read-only
// viewer offers no Run, a run a CLI runner holds cannot be started from the page (its pid is named), and Stop stops a
// run the page started as SIGTERM stops `openeval run`: its eval run recorded interrupted. While the page's run works,
// a CLI runner is refused it, as it would be by another CLI runner.
import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";
import { launchChromium, screenshot, withPage } from "./chromium.ts";
import { startViewer } from "./start-viewer.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUN_COMMAND = join(import.meta.dirname, "run-command.ts");
/** The selection run from the page and from the CLI: one eval, its first repetition, every model and variant. */
const EVAL = "exact-answer";
/** Runs real OpenCode sessions: only the suite's hang guard bounds them. */
const RUNS_SESSIONS = 1_800_000;
/** A control whose answer takes ten minutes: its run is held (or stopped) long before it ends. */
const SLOW_BENCHMARK = {
  "benchmark.ts": `export default { models: ["control/slow"], repetitions: 1 };\n`,
  "evals/wait/prompt.md": "Reply with DONE.\n",
  "evals/wait/judge.ts": `export default ({ response }) => ({ scores: { done: response.text === "DONE" } });\n`,
  "evals/wait/controls/slow.json": JSON.stringify({ turns: [{ text: "DONE", delayMs: 600_000 }] }),
};

let example: string;
let slow: string;
let viewer: Awaited<ReturnType<typeof startViewer>>;
let slowViewer: Awaited<ReturnType<typeof startViewer>>;
let readOnly: Awaited<ReturnType<typeof startViewer>>;
let browser: Browser;
const runners: ReturnType<typeof Bun.spawn>[] = [];

async function copyExample(): Promise<string> {
  const directory = await makeTempDir();
  for (const name of ["benchmark.ts", "evals", "variants"])
    await cp(join(ROOT, name), join(directory, name), { recursive: true });
  return directory;
}

beforeAll(async () => {
  example = await copyExample();
  slow = await writeTree(SLOW_BENCHMARK);
  viewer = await startViewer(example);
  slowViewer = await startViewer(slow);
  readOnly = await startViewer(example, ["--read-only"]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const runner of runners) runner.kill("SIGTERM");
  await Promise.all(runners.map((runner) => runner.exited));
  for (const server of [viewer, slowViewer, readOnly]) {
    // SIGTERM: the viewer stops the runs it started before it exits.
    server?.process.kill("SIGTERM");
    await server?.process.exited;
  }
});

const runIds = async (benchmark: string) => (await readdir(join(benchmark, "results")).catch(() => [])).sort();

interface Overview {
  live: boolean;
  counts: { judged: number; slots: number };
}

async function waitUntilFinished(base: string, runId: string): Promise<Overview> {
  let overview: Overview | undefined;
  await until(async () => {
    overview = (await (await fetch(`${base}api/runs/${encodeURIComponent(runId)}`)).json()) as Overview;
    return !overview.live && overview.counts.judged > 0;
  });
  return overview!;
}

/** What a run scored, without ids or times: each candidate's score and its evals' values. */
function scoresOf(summary: {
  models: {
    model: string;
    variant?: string;
    score: { value: number | null };
    evals: { evalId: string; value: number | null }[];
  }[];
}) {
  return summary.models.map((model) => ({
    model: model.model,
    variant: model.variant ?? "current",
    score: model.score.value,
    evals: model.evals.map((entry) => [entry.evalId, entry.value]),
  }));
}

describe("a run started from the page", () => {
  it(
    "plans the selection, starts only once its maximum is confirmed, opens live and ends as a CLI run of it does",
    async () => {
      await withPage(browser, async (page) => {
        await page.goto(viewer.url);
        await page.getByTestId("start-run").click();
        const form = page.getByRole("form", { name: "what to run" });
        await form.waitFor();
        // A cost cap that is not an amount is said so, never planned as no cap.
        await form.locator('input[name="max-cost"]').fill("two dollars");
        expect(await page.getByTestId("launch-problem").textContent()).toBe(
          'The cost cap "two dollars" is not an amount in USD; write one such as 2.5, or leave it empty for no cap.',
        );
        await form.locator('input[name="max-cost"]').fill("");
        for (const other of ["fix-discount", "fix-slugify", "incident-summary", "tidy-build"])
          await form.locator(`input[name="eval"][value="${other}"]`).uncheck();
        await form.locator('input[name="repetition"][value="2"]').uncheck();
        // Two models × current and concise: four candidates, the control judge's grading costs nothing.
        await page.getByTestId("plan-counts").filter({ hasText: "4 candidate" }).waitFor();
        expect(await page.locator('[data-testid="plan-work"] tbody tr').count()).toBe(4);
        expect(await page.getByTestId("plan-maximum").textContent()).toBe("$0");
        expect(await page.getByTestId("launch-confirmation").textContent()).toBe(
          "Start this run: it can spend at most $0.0000.",
        );
        const start = page.getByRole("button", { name: "Start the run" });
        expect(await start.isDisabled()).toBe(true);
        expect(await runIds(example)).toEqual([]);
        await screenshot(page, "launch-plan");
        await page.locator('input[name="confirm"]').check();
        await start.click();
        await page.waitForURL(/#\/runs\/[^/?]+\?tab=queue$/);
        const runId = decodeURIComponent(/#\/runs\/([^/?]+)/.exec(page.url())![1]!);
        expect(await runIds(example)).toEqual([runId]);
        expect((await waitUntilFinished(viewer.url, runId)).counts.judged).toBe(4);
        await page.goto(viewer.url);
        await page.locator(`[data-testid="runs"] a[href*="${encodeURIComponent(runId)}"]`).waitFor();

        const fromPage = JSON.parse((await runCli(["report", "--benchmark", example, "--json"])).stdout);
        const cli = await copyExample();
        const run = await runCli(["run", "--benchmark", cli, "--only-eval", EVAL, "--only-repetition", "1"]);
        expect(run.exitCode, run.stderr).toBe(0);
        const fromCli = JSON.parse((await runCli(["report", "--benchmark", cli, "--json"])).stdout);
        // A selection leaves the run incomplete, from the page as from the CLI.
        expect([fromPage.complete, fromCli.complete]).toEqual([false, false]);
        expect(scoresOf(fromPage)).toEqual(scoresOf(fromCli));
        expect(scoresOf(fromPage).map((entry) => [entry.model, entry.variant])).toEqual([
          ["control/positive", "current"],
          ["control/positive", "concise"],
          ["control/negative", "current"],
          ["control/negative", "concise"],
        ]);
      });
    },
    RUNS_SESSIONS,
  );

  it(
    "is stopped by Stop as SIGTERM stops openeval run: its running eval run is recorded interrupted",
    async () => {
      await withPage(browser, async (page) => {
        await page.goto(`${slowViewer.url}#/run`);
        await page.locator('input[name="confirm"]').check();
        await page.getByRole("button", { name: "Start the run" }).click();
        await page.waitForURL(/#\/runs\/[^/?]+\?tab=queue$/);
        const runId = decodeURIComponent(/#\/runs\/([^/?]+)/.exec(page.url())![1]!);
        // Stopped while its candidate waits for the slow answer.
        await until(() => evalRunStates(join(slow, "results", runId)).includes("running"));
        // The page's runner holds the run against the CLI as a CLI runner would.
        const cli = await runCli(["run", "--benchmark", slow, "--run", runId]);
        expect(cli.exitCode).toBe(2);
        expect(cli.stderr).toContain(
          `Another openeval run (pid ${holderOf(join(slow, "results", runId))}) is working on`,
        );
        await page.getByRole("button", { name: "Stop" }).click();
        await page.getByTestId("stop-message").filter({ hasText: "Stopped" }).waitFor();
        expect(await page.getByTestId("stop-message").textContent()).toBe("Stopped (openeval run exited with 143).");
        expect(evalRunStates(join(slow, "results", runId))).toEqual(["interrupted"]);
      });
    },
    RUNS_SESSIONS,
  );
});

describe("what cannot start a run", () => {
  it("a request from another site in the same browser, or without the token, gets 403 and starts nothing", async () => {
    const before = await runIds(example);
    const otherSite = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response("<!doctype html><title>elsewhere</title>", { headers: { "content-type": "text/html" } }),
    });
    try {
      await withPage(
        browser,
        async (page) => {
          await page.goto(`http://127.0.0.1:${otherSite.port}/`);
          // A simple request needs no preflight: it reaches the viewer, which refuses its Origin.
          await page.evaluate(async (url) => {
            await fetch(`${url}api/actions/runs`, {
              method: "POST",
              mode: "no-cors",
              headers: { "content-type": "text/plain" },
              body: JSON.stringify({ run: "new", confirm: { maximumUSD: 0 } }),
            });
          }, viewer.url);
        },
        { errorsExpected: true },
      );
      const forged = await fetch(`${viewer.url}api/actions/runs`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://127.0.0.1:${otherSite.port}` },
        body: JSON.stringify({ run: "new", confirm: { maximumUSD: 0 } }),
      });
      expect(forged.status).toBe(403);
      const tokenless = await fetch(`${viewer.url}api/actions/runs`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: viewer.url.slice(0, -1) },
        body: JSON.stringify({ run: "new", confirm: { maximumUSD: 0 } }),
      });
      expect(tokenless.status).toBe(403);
      expect(((await tokenless.json()) as { error: string }).error).toContain("lacks this viewer's token");
    } finally {
      otherSite.stop(true);
    }
    expect(await runIds(example)).toEqual(before);
  });

  it("a read-only viewer has no Run button, says why on the run page, and refuses the endpoint", async () => {
    await withPage(browser, async (page) => {
      await page.goto(readOnly.url);
      await page.getByRole("heading", { name: "Runs" }).waitFor();
      expect(await page.getByTestId("start-run").count()).toBe(0);
      await page.goto(`${readOnly.url}#/run`);
      expect(await page.getByTestId("launch-unavailable").textContent()).toContain("it is read-only");
    });
    const refused = await fetch(`${readOnly.url}api/actions/plan`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: readOnly.url.slice(0, -1) },
      body: JSON.stringify({ run: "new" }),
    });
    expect(refused.status).toBe(403);
  });

  it(
    "a run a CLI runner holds: the page names the runner's pid and cannot start it",
    async () => {
      const runner = Bun.spawn([process.execPath, RUN_COMMAND, "run", "--benchmark", slow, "--new"], {
        stdout: "ignore",
        stderr: "ignore",
      });
      runners.push(runner);
      const runId = await heldRun(slow, runner.pid);
      await withPage(browser, async (page) => {
        await page.goto(`${slowViewer.url}#/run?run=${encodeURIComponent(runId)}`);
        await page.getByTestId("launch-held").waitFor();
        expect(await page.getByTestId("launch-held").textContent()).toBe(
          `openeval run (pid ${runner.pid}) is working on ${runId}: it cannot start here until that one ends.`,
        );
        expect(await page.getByRole("button", { name: "Start the run" }).isDisabled()).toBe(true);
      });
      runner.kill("SIGTERM");
      await runner.exited;
    },
    RUNS_SESSIONS,
  );
});

/** The id of the run `pid` creates and holds under `benchmark`, once its heartbeat is written. */
async function heldRun(benchmark: string, pid: number): Promise<string> {
  let held: string | undefined;
  await until(async () => {
    for (const id of await runIds(benchmark)) if (holderOf(join(benchmark, "results", id)) === pid) held = id;
    return held !== undefined;
  });
  return held!;
}

/** The pid that beats in a run's store; null while the run is being created or nobody holds it. */
function holderOf(directory: string): number | null {
  try {
    const store = ResultsStore.open(directory, { readonly: true });
    try {
      return store.heartbeat()?.pid ?? null;
    } finally {
      store.close();
    }
  } catch {
    return null;
  }
}

function evalRunStates(directory: string): string[] {
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    return store.evalRuns().map((evalRun) => evalRun.state);
  } finally {
    store.close();
  }
}

/** Waits for `condition` with no deadline of its own: the suite's hang guard is the only limit, so load cannot break it. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await Bun.sleep(200);
}
