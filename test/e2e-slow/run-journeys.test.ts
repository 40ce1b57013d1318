// Journeys through `openeval run` on benchmarks written here: timeouts that take the agent's children with them,
// provider errors that are infrastructure errors (never a 0), and a planted key that never reaches results/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { processesMatching } from "../helpers/processes.ts";

const PLANTED = "sk-ant-planted-e2e-5f0c2b9d7a41";
const answerJudge = `export default ({ response }) => ({ scores: { answered: response.text.trim() === "OK" } });\n`;
const control = (turns: unknown[]) => JSON.stringify({ turns });

let leakyProvider: ControlServer;
let directory: string;
let run: Awaited<ReturnType<typeof runCli>>;
let unsandboxed: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  // A provider named "anthropic" served by a control server, so that the candidate really holds ANTHROPIC_API_KEY.
  leakyProvider = await startControlServer({
    controls: {
      leak: {
        leaky: {
          turns: [
            {
              tools: [
                {
                  name: "bash",
                  input: {
                    command: "echo key=$ANTHROPIC_API_KEY > leaked.txt; env | grep ANTHROPIC",
                    description: "leak",
                  },
                },
              ],
            },
            { text: `OK ${PLANTED}` },
          ],
        },
      },
    },
  });
  directory = await writeTree({
    "benchmark.ts": `export default {
  models: ["control/positive", "anthropic/leaky"],
  repetitions: 1,
  candidate: {
    timeoutMs: 60_000,
    providers: { anthropic: { npm: "@ai-sdk/openai-compatible", options: { baseURL: ${JSON.stringify(leakyProvider.baseURL("leak"))} },
      models: { leaky: { name: "leaky", tool_call: true, limit: { context: 128000, output: 8192 } } } } },
  },
};\n`,
    "evals/answer/prompt.md": "Reply with OK.\n",
    "evals/answer/judge.ts": answerJudge,
    "evals/answer/controls/positive.json": control([{ text: "OK" }]),
    "evals/looper/prompt.md": "Keep working.\n",
    // Room for OpenCode to reach its first tool call on a loaded 2-core machine (else: an infrastructure error).
    "evals/looper/eval.ts": "export default { timeoutMs: 30_000 };\n",
    "evals/looper/judge.ts": answerJudge,
    "evals/looper/controls/positive.json": control([
      { tools: [{ name: "bash", input: { command: "sleep 313 & sleep 313", description: "wait" } }] },
    ]),
    "evals/provider-down/prompt.md": "Reply with OK.\n",
    "evals/provider-down/judge.ts": answerJudge,
    "evals/provider-down/controls/positive.json": control([{ error: { status: 500, message: "upstream exploded" } }]),
  });
  run = await runCli(["run", "--benchmark", directory, "--only-model", "control/positive"], { timeoutMs: 300_000 });
  // A real model runs in a container by default; this journey is about the process backend, asked for by name.
  unsandboxed = await runCli(
    [
      "run",
      "--benchmark",
      directory,
      "--only-model",
      "anthropic/leaky",
      "--only-eval",
      "answer",
      "--isolation",
      "process",
    ],
    {
      env: { ANTHROPIC_API_KEY: PLANTED, OPENAI_API_KEY: "sk-openai-not-for-this-candidate-123" },
      timeoutMs: 300_000,
    },
  );
});

afterAll(async () => {
  await leakyProvider?.close();
});

function storeOf(): ResultsStore {
  const root = join(directory, "results");
  return ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
}

describe("openeval run journeys", () => {
  it("grades what finished and reports the rest as not finished (exit 3)", () => {
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toMatch(/control\/positive \(control\)\s+\[/);
    expect(run.stdout).toContain("1 slot not finished");
  });

  it("ends a control that never stops calling tools as timed_out, with its bash children gone", () => {
    const looper = storeOf()
      .evalRuns()
      .find((evalRun) => evalRun.slot.evalId === "looper")!;
    expect(looper.state).toBe("timed_out");
    expect(looper.infrastructureError).toBe(false);
    expect(looper.elapsedMs).toBeGreaterThanOrEqual(30_000);
    expect(processesMatching("sleep 313")).toEqual([]);
    // A timeout is the candidate's own outcome: its recording is judged like any other.
    expect(storeOf().judgeRuns(looper.id)[0]?.scores).toEqual({ answered: { value: 0, source: "judge.ts" } });
  });

  it("records a provider that only errors as an infrastructure error, not judged and not scored as 0", () => {
    const store = storeOf();
    const down = store.evalRuns().find((evalRun) => evalRun.slot.evalId === "provider-down")!;
    expect(down).toMatchObject({ state: "failed", infrastructureError: true });
    expect(down.error).toContain("upstream exploded");
    expect(store.judgeRuns(down.id)).toEqual([]);
    expect(run.stdout).toContain(
      `provider-down × control/positive #1 [eval run ${down.id}]: failed — Infrastructure error`,
    );
  });

  it("labels a real model run with --isolation process unsandboxed, in the summary and its eval run", () => {
    expect(unsandboxed.stdout).toMatch(/^anthropic\/leaky \(unsandboxed\)\s/m);
    expect(unsandboxed.stdout).toContain("(unsandboxed): ran on this machine as the current user");
    expect(
      storeOf()
        .evalRuns()
        .find((evalRun) => evalRun.slot.model === "anthropic/leaky")!.input.isolation,
    ).toBe("process");
  });

  it("keeps the candidate's own key out of every file under results/, and never hands it another provider's key", () => {
    const leak = storeOf()
      .evalRuns()
      .find((evalRun) => evalRun.slot.model === "anthropic/leaky")!;
    expect(leak.state).toBe("completed");
    const files = listFiles(join(directory, "results"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(PLANTED), `${file} contains the planted key`).toBe(false);
      expect(bytes.includes("sk-openai-not-for-this-candidate-123"), `${file} contains another provider's key`).toBe(
        false,
      );
    }
    // The agent did see its key: the redaction is what kept it out.
    const leaked = files.filter((file) => readFileSync(file).includes("[REDACTED]"));
    expect(leaked.length).toBeGreaterThan(0);
  });
});

function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isFile());
}
