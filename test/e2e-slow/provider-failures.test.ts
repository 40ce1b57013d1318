// Local servers that go wrong, told straight: `openeval run` against OpenAI-compatible providers on 127.0.0.1 that
// are slower than the time limit, answer 404 at the configured path, die after the run's first check, or send their
// model's tool calls as text (a chat template without tool-call support).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { RunCatalog } from "../../packages/openeval/src/view/run-catalog.ts";
import { ViewerData } from "../../packages/openeval/src/view/viewer-data.ts";
import type { EvalRun } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

let controls: ControlServer;
let dying: ReturnType<typeof Bun.serve>;
let dyingURL: string;
let failing: BenchmarkRun;
let answering: BenchmarkRun;

const model = (name: string) => ({
  name,
  tool_call: true,
  limit: { context: 128_000, output: 1_024 },
  cost: { input: 1, output: 2 },
});
const provider = (baseURL: string, ...names: string[]) => ({
  npm: "@ai-sdk/openai-compatible",
  options: { baseURL },
  models: Object.fromEntries(names.map((name) => [name, model(name)])),
});

beforeAll(async () => {
  controls = await startControlServer({
    controls: {
      local: {
        ok: { turns: [{ text: "OK", usage: { input: 900, output: 5 } }] },
        template: {
          turns: [
            {
              text: 'I will list the files.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>',
              usage: { input: 900, output: 20 },
            },
          ],
        },
      },
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
    local: provider(controls.baseURL("local"), "ok", "template"),
    slow: provider(controls.baseURL("slow"), "sleepy"),
    // The path without /v1: the server answers 404 there.
    wrong: provider(controls.baseURL("local").replace(/\/v1$/, ""), "ok"),
    dying: provider(dyingURL, "a", "b", "c"),
  };
  // The failures need a short time limit; the answers get the default one, which load cannot break.
  failing = await runBenchmark(
    ["local/ok", "slow/sleepy", "dying/a", "dying/b", "dying/c"],
    providers,
    "timeoutMs: 30_000, ",
  );
  answering = await runBenchmark(["local/ok", "local/template", "wrong/ok"], providers, "");
});

interface BenchmarkRun {
  directory: string;
  run: CliResult;
}

async function runBenchmark(models: string[], providers: object, limits: string): Promise<BenchmarkRun> {
  const directory = await writeTree({
    "benchmark.ts": `export default {
  models: ${JSON.stringify(models)},
  repetitions: 1,
  concurrency: 1,
  candidate: { isolation: "process", ${limits}providers: ${JSON.stringify(providers)} },
};\n`,
    "evals/answer/prompt.md": "Reply with OK.\n",
    "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { ok: response.text.trim().startsWith("OK") } });\n`,
  });
  return { directory, run: await runCli(["run", "--benchmark", directory]) };
}

afterAll(async () => {
  await controls?.close();
  dying?.stop(true);
});

function runDirectory({ directory }: BenchmarkRun): string {
  const root = join(directory, "results");
  return join(root, readdirSync(root)[0]!);
}

function evalRuns(benchmark: BenchmarkRun): EvalRun[] {
  const store = ResultsStore.open(runDirectory(benchmark), { readonly: true });
  try {
    return store.evalRuns();
  } finally {
    store.close();
  }
}

const evalRunOf = (benchmark: BenchmarkRun, name: string) =>
  evalRuns(benchmark).find((evalRun) => evalRun.slot.model === name)!;

describe("a provider slower than the time limit before its first answer", () => {
  it("is a setup error of the time limit that names candidate.timeoutMs, not an infrastructure error to retry", () => {
    const slow = evalRunOf(failing, "slow/sleepy");
    expect(slow).toMatchObject({ state: "timed_out", infrastructureError: true, setupError: true });
    expect(slow.error).toContain("The model had not finished its first answer after 30 s");
    expect(slow.error).toContain(
      `Checked again, the endpoint at ${controls.baseURL("slow")} answers: the model is too slow for this limit, not down`,
    );
    expect(slow.error).toContain("Raise candidate.timeoutMs in benchmark.ts above 30000 ms");
    expect(failing.run.stdout).toContain(
      `answer × slow/sleepy #1 [eval run ${slow.id}]: failed — Setup error: The model had not finished its first answer`,
    );
  });
});

describe("a provider whose path answers 404", () => {
  it("is a setup error before its slot starts, naming the URL and suggesting /v1", () => {
    const wrong = evalRunOf(answering, "wrong/ok");
    const baseURL = controls.baseURL("local").replace(/\/v1$/, "");
    expect(wrong).toMatchObject({ state: "failed", infrastructureError: true, setupError: true, evidence: null });
    expect(wrong.error).toContain(`GET ${baseURL}/models answered 404 Not Found`);
    expect(wrong.error).toContain(`try ${baseURL}/v1`);
  });
});

describe("a provider that dies during the run", () => {
  it("names its URL in the failed slot, then fails its remaining slots at once while the other providers run on", () => {
    const runs = ["dying/a", "dying/b", "dying/c"].map((name) => evalRunOf(failing, name));
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
    // The other provider's slot ran (under this load-sensitive limit, its state is not the point).
    expect(evalRunOf(failing, "local/ok").evidence).not.toBeNull();
  });
});

describe("a model whose server does not parse its tool calls", () => {
  it("records the tool-call-shaped text as a finding, shown in the summary and the viewer with a hint about the chat template", async () => {
    const template = evalRunOf(answering, "local/template");
    expect(template.state).toBe("completed");
    expect(template.metrics?.tools.calls).toBe(0);
    expect(template.findings).toEqual([
      {
        kind: "tool_call_text",
        count: 1,
        messageID: expect.stringMatching(/^msg_/),
        shape: "<tool_call>",
        excerpt: expect.stringContaining('"name": "bash"'),
      },
    ]);
    expect(answering.run.stdout).toContain(
      `answer × local/template #1 [eval run ${template.id}] wrote a tool call as text (<tool_call>, first in message`,
    );
    expect(answering.run.stdout).toContain("llama-server --jinja");
    const data = new ViewerData(RunCatalog.open({ run: runDirectory(answering), resultsRoot: "unused" }));
    try {
      const runId = data.runs().defaultRunId!;
      const detail = (await data.evalRun(runId, template.id))!;
      expect(detail.findings).toEqual([
        expect.stringMatching(/^The model wrote a tool call as text \(<tool_call>.*chat template supports tool calls/),
      ]);
      expect((await data.evalRun(runId, evalRunOf(answering, "local/ok").id))!.findings).toEqual([]);
    } finally {
      data.close();
    }
  });
});
