// Runs from the viewer's page, short of starting one (the browser suite starts, watches and stops real runs): the
// plan the page shows, the confirmation it asks for, and what refuses a start — a plan whose maximum moved since it
// was confirmed, a run another runner holds (named by its pid), a run id that is not this benchmark's, a bad request.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { ResultsStore } from "../records/index.ts";
import { serveViewer, type ViewerServer } from "../view/index.ts";
import { runArguments, createViewLauncher } from "./view-launcher.ts";

const RUN_ID = "2026-12-05T10-00-00.000Z-0a1b2c3d";

let benchmark: string;
let viewer: ViewerServer;
let token: string;
let holder: ReturnType<typeof Bun.spawn>;
let heartbeat: ReturnType<typeof setInterval>;

beforeAll(async () => {
  benchmark = await writeTree(
    minimalBenchmark({
      "benchmark.ts": `export default { models: ["control/positive", "provider/model"], repetitions: 2, candidate: { maxCostUSD: 0.5 } };\n`,
      "evals/other/prompt.md": "Reply with PEAR.\n",
      "evals/other/judge.ts": `export default ({ response }) => ({ scores: { correct: response.text === "PEAR" } });\n`,
      "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      "evals/other/controls/positive.json": JSON.stringify({ turns: [{ text: "PEAR" }] }),
    }),
  );
  const store = ResultsStore.open(join(benchmark, "results", RUN_ID), { create: true });
  store.writeRun({
    id: RUN_ID,
    name: "held",
    benchmarkDirectory: benchmark,
    createdAt: "2026-12-05T10:00:00.000Z",
    opencodeVersion: "1.18.33",
    models: ["control/positive", "provider/model"],
    repetitions: 2,
    evals: ["answer", "other"],
  });
  store.close();
  // A live process holds the run, as a runner would: its pid beats in the store while the tests run.
  holder = Bun.spawn(["sleep", "600"]);
  const beat = () => {
    const held = ResultsStore.open(join(benchmark, "results", RUN_ID));
    held.claim(holder.pid, () => false);
    held.close();
  };
  beat();
  heartbeat = setInterval(beat, 1_000);
  viewer = await serveViewer({ benchmark, port: 0, launcher: createViewLauncher(benchmark) });
  token = /"token":"([0-9a-f]{64})"/.exec(await (await fetch(viewer.url)).text())![1]!;
});

afterAll(async () => {
  clearInterval(heartbeat);
  holder?.kill();
  await viewer?.stop();
});

async function act(path: string, body: unknown): Promise<{ status: number; answer: Record<string, unknown> }> {
  const response = await fetch(`${viewer.url}api/actions/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: viewer.url.slice(0, -1), "x-openeval-token": token },
    body: JSON.stringify(body),
  });
  return { status: response.status, answer: (await response.json()) as Record<string, unknown> };
}

describe("planning a run from the viewer", () => {
  it("offers every eval, model and repetition, and shows the selection's work with its estimate and maximum", async () => {
    const { status, answer } = await act("plan", { run: "new", models: ["provider/model"], repetitions: [1] });
    expect(status).toBe(200);
    expect(answer).toMatchObject({
      choices: {
        runs: [RUN_ID],
        evals: [
          { id: "answer", cases: [] },
          { id: "other", cases: [] },
        ],
        models: ["control/positive", "provider/model"],
        variants: ["current"],
        repetitions: [1, 2],
      },
      runId: null,
      heldBy: null,
      counts: { candidate: 2 },
      maximumUSD: 0.5 + 0.5,
      unbounded: [],
      confirmation: "Start this run: it can spend at most $1.0000.",
    });
    expect(answer.work).toEqual([
      { slot: "answer × provider/model #1", action: "candidate", reason: "New eval/model/repetition" },
      { slot: "other × provider/model #1", action: "candidate", reason: "New eval/model/repetition" },
    ]);
  });

  it("says when nothing bounds the maximum, and why", async () => {
    const unbounded = await writeTree(minimalBenchmark());
    const launcher = createViewLauncher(unbounded);
    const answer = await launcher.plan({ run: "new" });
    expect(answer.maximumUSD).toBeNull();
    expect(answer.unbounded).toEqual([
      { slot: "answer × provider/model #1", action: "candidate", why: "set candidate.maxCostUSD to bound it" },
    ]);
    expect(answer.confirmation).toBe(
      "Start this run although the most it can spend is unknown: 1 unbounded item of work: set candidate.maxCostUSD to bound it.",
    );
  });

  it("names the pid of the runner that holds a run, and refuses to start it", async () => {
    const plan = await act("plan", { run: RUN_ID, evals: ["answer"] });
    expect(plan.answer).toMatchObject({ runId: RUN_ID, heldBy: holder.pid });
    const start = await act("runs", { run: RUN_ID, evals: ["answer"], confirm: { maximumUSD: 1 } });
    expect(start.status).toBe(409);
    expect(start.answer).toMatchObject({ code: "OE_RUN_IN_PROGRESS" });
    expect(start.answer.error).toContain(`Another openeval run (pid ${holder.pid}) is working on`);
  });

  it("refuses a start confirmed against another maximum than the plan's, saying both", async () => {
    const start = await act("runs", { run: "new", models: ["provider/model"], confirm: { maximumUSD: 1 } });
    expect(start.status).toBe(409);
    expect(start.answer).toEqual({
      code: "OE_LAUNCH_PLAN_CHANGED",
      error:
        "The plan changed since it was confirmed (confirmed a maximum of $1.0000, now a maximum of $2.0000); look at the plan again and confirm what it now says",
    });
    const unknown = await act("runs", { run: "new", models: ["provider/model"], confirm: { maximumUSD: null } });
    expect(unknown.answer.error).toContain("confirmed an unknown maximum, now a maximum of $2.0000");
  });

  it("refuses a run id that is not this benchmark's, a selection that matches nothing, and a malformed request", async () => {
    const path = await act("plan", { run: "../../etc" });
    expect(path).toMatchObject({ status: 400, answer: { code: "OE_RUN_NOT_FOUND" } });
    expect(path.answer.error).toContain(`../../etc is not a run: pass a results/<run-id> folder or a run id under`);
    const typo = await act("plan", { run: "new", evals: ["anwser"] });
    expect(typo.status).toBe(400);
    expect(typo.answer.error).toContain('"anwser"');
    const malformed = await act("plan", { run: "new", repetitions: [0], colour: "red" });
    expect(malformed.status).toBe(400);
    expect(malformed.answer.error).toMatch(/^Invalid run selection: .*repetitions.*; .*colour/);
    const unconfirmed = await act("runs", { run: "new" });
    expect(unconfirmed.answer.error).toMatch(/^Invalid run request: confirm: /);
  });

  it("refuses to stop a run it is not running, pointing where a run started elsewhere is stopped", async () => {
    const stop = await act(`runs/${RUN_ID}/stop`, {});
    expect(stop).toEqual({
      status: 409,
      answer: {
        code: "OE_LAUNCH_NOT_RUNNING",
        error: `This viewer is not running ${RUN_ID}; a run started elsewhere is stopped where it runs (Ctrl+C, or kill its pid)`,
      },
    });
  });
});

describe("the runner's flags", () => {
  it("asks `openeval run` exactly what the page planned", () => {
    expect(
      runArguments({
        run: RUN_ID,
        evals: ["a", "b"],
        cases: ["c"],
        models: ["m/x"],
        variants: ["current"],
        repetitions: [2],
        maxCostUSD: 1.5,
      }),
    ).toEqual([
      "run",
      "--benchmark",
      ".",
      "--run",
      RUN_ID,
      "--only-eval",
      "a",
      "--only-eval",
      "b",
      "--only-case",
      "c",
      "--only-model",
      "m/x",
      "--only-variant",
      "current",
      "--only-repetition",
      "2",
      "--max-cost",
      "1.5",
      "--json",
    ]);
    expect(runArguments({ run: "new" })).toEqual(["run", "--benchmark", ".", "--new", "--json"]);
  });
});
