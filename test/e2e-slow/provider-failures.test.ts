// Local servers that go wrong, told straight: `openeval run` against OpenAI-compatible providers on 127.0.0.1 that
// are slower than the time limit, answer 404 at the configured path, or die after the run's first check.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { EvalRun } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

let controls: ControlServer;
let dying: ReturnType<typeof Bun.serve>;
let dyingURL: string;
let directory: string;
let run: CliResult;

const model = (name: string) => ({ name, tool_call: true, limit: { context: 128_000, output: 1_024 }, cost: { input: 1, output: 2 } });
const provider = (baseURL: string, ...names: string[]) => ({
  npm: "@ai-sdk/openai-compatible",
  options: { baseURL },
  models: Object.fromEntries(names.map((name) => [name, model(name)])),
});

beforeAll(async () => {
  controls = await startControlServer({
    controls: {
      local: { ok: { turns: [{ text: "OK", usage: { input: 900, output: 5 } }] } },
      // Far slower than the time limit before its first byte: a model too slow for the limit, not a dead server.
      slow: { sleepy: { turns: [{ delayMs: 600_000, text: "late" }] } },
    },
  });
  // Answers the run's first endpoint check, then dies: nothing listens on its port any more.
  dying = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      setTimeout(() => dying.stop(true), 0);
      return Response.json({ object: "list", data: [] });
    },
  });
  dyingURL = `http://127.0.0.1:${dying.port}/v1`;
  const providers = {
    local: provider(controls.baseURL("local"), "ok"),
    slow: provider(controls.baseURL("slow"), "sleepy"),
    // The path without /v1: the server answers 404 there.
    wrong: provider(controls.baseURL("local").replace(/\/v1$/, ""), "ok"),
    dying: provider(dyingURL, "a", "b", "c"),
  };
  directory = await writeTree({
    "benchmark.ts": `export default {
  models: ["local/ok", "slow/sleepy", "wrong/ok", "dying/a", "dying/b", "dying/c"],
  repetitions: 1,
  concurrency: 1,
  candidate: { isolation: "process", timeoutMs: 30_000, providers: ${JSON.stringify(providers)} },
};\n`,
    "evals/answer/prompt.md": "Reply with OK.\n",
    "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { ok: response.text.trim().startsWith("OK") } });\n`,
  });
  run = await runCli(["run", "--benchmark", directory]);
});

afterAll(async () => {
  await controls?.close();
  dying?.stop(true);
});

function evalRuns(): EvalRun[] {
  const root = join(directory, "results");
  const store = ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
  try {
    return store.evalRuns();
  } finally {
    store.close();
  }
}

const evalRunOf = (name: string) => evalRuns().find((evalRun) => evalRun.slot.model === name)!;

describe("a provider slower than the time limit before its first answer", () => {
  it("is a setup error of the time limit that names candidate.timeoutMs, not an infrastructure error to retry", () => {
    const slow = evalRunOf("slow/sleepy");
    expect(slow).toMatchObject({ state: "timed_out", infrastructureError: true, setupError: true });
    expect(slow.error).toContain("The model had not finished its first answer after 30 s");
    expect(slow.error).toContain(`Checked again, the endpoint at ${controls.baseURL("slow")} answers: the model is too slow for this limit, not down`);
    expect(slow.error).toContain("Raise candidate.timeoutMs in benchmark.ts above 30000 ms");
    expect(run.stdout).toContain(`answer × slow/sleepy #1 [eval run ${slow.id}]: failed — Setup error: The model had not finished its first answer`);
  });
});

describe("a provider whose path answers 404", () => {
  it("is a setup error before its slot starts, naming the URL and suggesting /v1", () => {
    const wrong = evalRunOf("wrong/ok");
    const baseURL = controls.baseURL("local").replace(/\/v1$/, "");
    expect(wrong).toMatchObject({ state: "failed", infrastructureError: true, setupError: true, evidence: null });
    expect(wrong.error).toContain(`GET ${baseURL}/models answered 404 Not Found`);
    expect(wrong.error).toContain(`try ${baseURL}/v1`);
  });
});

describe("a provider that dies during the run", () => {
  it("names its URL in the failed slot, then fails its remaining slots at once while the other providers run on", () => {
    const runs = ["dying/a", "dying/b", "dying/c"].map(evalRunOf);
    for (const evalRun of runs) {
      expect(evalRun.infrastructureError).toBe(true);
      expect(evalRun.setupError ?? false).toBe(false);
      expect(evalRun.error).toContain(`Provider "dying" is unreachable at ${dyingURL}`);
    }
    const tried = runs.filter((evalRun) => evalRun.evidence !== null);
    const skipped = runs.filter((evalRun) => evalRun.evidence === null);
    expect(tried).toHaveLength(1);
    expect(tried[0]!.error).toContain("Checked again:");
    expect(skipped).toHaveLength(2);
    for (const evalRun of skipped) expect(evalRun.error).toContain("so this slot did not run");
    expect(evalRunOf("local/ok").state).toBe("completed");
  });
});
