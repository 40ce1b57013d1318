// Provider back-off, end to end: `openeval run --concurrency 4 --json` against a control provider that answers 429
// with `retry-after` whenever more than two of its requests are in flight. OpenCode retries each 429 after the wait;
// the runner sees them in OpenCode's log, lowers the provider's share of the candidates and raises it again as
// answers come: no slot fails, the --json events show the back-off and the recovery, and retries stay recorded.
import { beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../../packages/openeval/src/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

// Every session's first step is slow, so four sessions started together overlap and two of them are pushed back;
// OpenCode waits the 2 s `retry-after` between attempts and gives up only after five, which the slow step outlasts.
const LIMITED = {
  turns: [
    {
      delayMs: 3_000,
      tools: [{ name: "bash", input: { command: "echo step", description: "step" } }],
      usage: { input: 900, output: 5 },
    },
    { text: "OK", usage: { input: 950, output: 2 } },
  ],
  rateLimit: { concurrent: 2, retryAfter: 2 },
};
const REPETITIONS = 8;

let directory: string;
let run: CliResult;
let events: RunnerEvent[];

beforeAll(async () => {
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/limited"], repetitions: ${REPETITIONS}, candidate: { timeoutMs: 120_000 } };\n`,
    "evals/answer/prompt.md": "Reply with OK.\n",
    "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { ok: response.text.trim() === "OK" } });\n`,
    "evals/answer/controls/limited.json": JSON.stringify(LIMITED),
  });
  run = await runCli(["run", "--benchmark", directory, "--concurrency", "4", "--json"], { timeoutMs: 400_000 });
  events = run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunnerEvent);
});

type Backoff = Extract<RunnerEvent, { type: "provider.backoff" }>;

const backoffs = () => events.filter((event): event is Backoff => event.type === "provider.backoff");

describe("a provider that answers 429 above two requests in flight, at concurrency 4", () => {
  it("finishes with no failed slot: every candidate completed and was judged", () => {
    expect(run.exitCode, run.stderr).toBe(0);
    const finished = events.filter((event) => event.type === "candidate.finished");
    expect(finished).toHaveLength(REPETITIONS);
    for (const event of finished) expect(event.evalRun.state, event.evalRun.error ?? "").toBe("completed");
    const summary = events.find((event) => event.type === "run.finished")!.summary;
    expect(summary.models[0]!.failed).toBe(0);
    expect(summary.open).toEqual([]);
    expect(summary.complete).toBe(true);
  });

  it("--json shows the back-off: the provider's share lowered on its 429, with its message, and resumed after the retry wait", () => {
    const lowered = backoffs().find((event) => event.change === "lowered");
    expect(lowered).toMatchObject({
      provider: "control",
      max: 4,
      reason: "rate_limited",
      message: "Rate limit reached: more than 2 concurrent requests to limited",
    });
    expect(lowered!.limit).toBeLessThan(4);
    const resumed = backoffs().find((event) => event.change === "resumed");
    // OpenCode retried after the provider's `retry-after` of 2 s (the runner saw the retry in its log).
    expect(resumed!.retryAfterMs).toBeGreaterThanOrEqual(1_900);
  });

  it("--json shows the recovery: the share raised again by the answers that followed", () => {
    const changes = backoffs();
    const firstLowered = changes.findIndex((event) => event.change === "lowered");
    const raises = changes
      .slice(firstLowered)
      .filter((event) => event.change === "raised" || event.change === "recovered");
    expect(raises.length).toBeGreaterThan(0);
    expect(raises[0]!.limit).toBeGreaterThan(changes[firstLowered]!.limit);
  });

  it("started no candidate beyond the lowered share until it recovered, though four lanes were free", () => {
    let running = 0;
    let backedOff = false;
    const startedWhileBackedOff: number[] = [];
    for (const event of events) {
      if (event.type === "provider.backoff" && event.change === "lowered") backedOff = true;
      if (event.type === "provider.backoff" && event.change === "recovered") break;
      if (event.type === "candidate.finished") running--;
      if (event.type !== "candidate.started") continue;
      running++;
      if (backedOff) startedWhileBackedOff.push(running);
    }
    // Without back-off each finished candidate's lane goes to the next one at once: four would run again.
    expect(startedWhileBackedOff.length).toBeGreaterThan(0);
    expect(Math.max(...startedWhileBackedOff)).toBeLessThanOrEqual(3);
  });

  it("keeps counting OpenCode's retries in the eval runs' metrics", () => {
    const retries = events
      .filter((event) => event.type === "candidate.finished")
      .map((event) => event.evalRun.metrics?.requests?.retries ?? 0);
    expect(retries.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
  });
});
