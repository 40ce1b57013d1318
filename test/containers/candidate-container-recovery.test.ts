// Nothing left behind and credentials in container mode: a runner SIGKILLed while its candidate
// runs in a container leaves the container, its egress proxy and their volume to the next run's recovery, which
// removes them; and a planted provider key that the containerized agent prints appears nowhere under results/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { openSandboxEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

const reachable = await isEngineReachable();
const CLI_MAIN = join(import.meta.dirname, "..", "..", "packages", "openeval", "src", "cli", "main.ts");
const PLANTED = "sk-ant-planted-container-7d1e44a09b";
const judge = `export default ({ response }) => ({ scores: { answered: response.text.includes("OK") } });\n`;
let provider: ControlServer;

const volumesOf = (label: string) =>
  Bun.spawnSync(["/usr/bin/docker", "volume", "ls", "-q", "--filter", `label=${label}`])
    .stdout.toString()
    .trim();

function listFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage();
  provider = await startControlServer({
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
}, 900_000);

afterAll(async () => {
  await provider?.close();
});

describe.skipIf(!reachable)("candidate containers across a runner crash, and credentials", () => {
  it("reaps the container, proxy and volume of a SIGKILLed runner on the next run", async () => {
    const directory = await writeTree({
      "benchmark.ts": `export default { models: ["control/sleeper"], repetitions: 1, candidate: { timeoutMs: 300_000, isolation: "container" } };\n`,
      "evals/sleepy/prompt.md": "Wait.\n",
      "evals/sleepy/judge.ts": judge,
      "evals/sleepy/controls/sleeper.json": JSON.stringify({
        turns: [{ tools: [{ name: "bash", input: { command: "sleep 280", description: "wait" } }] }, { text: "OK" }],
      }),
    });
    const runner = Bun.spawn([process.execPath, CLI_MAIN, "run", "--benchmark", directory], {
      stdout: "ignore",
      stderr: "ignore",
      stdin: "ignore",
    });
    const engine = await openSandboxEngine("container");
    let runId = "";
    for (let waited = 0; waited < 240_000 && runId === ""; waited += 500) {
      await Bun.sleep(500);
      const results = join(directory, "results");
      const candidate = (await engine.list({ "openeval.sandbox": "candidate" }).catch(() => [])).length > 0;
      try {
        if (candidate) runId = readdirSync(results)[0] ?? "";
      } catch {
        // not created yet
      }
    }
    expect(runId).not.toBe("");
    runner.kill("SIGKILL");
    await runner.exited;
    expect((await engine.list({ "openeval.run": runId })).length).toBe(2);
    expect(volumesOf(`openeval.run=${runId}`)).not.toBe("");

    // The next run (offline: it calls no model) recovers the run and reaps what the dead runner left.
    const rerun = await runCli(["run", "--benchmark", directory, "--offline"], { timeoutMs: 120_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(3);
    expect(await engine.list({ "openeval.run": runId })).toEqual([]);
    expect(volumesOf(`openeval.run=${runId}`)).toBe("");
  }, 400_000);

  it("ends a containerized candidate at its wall-clock timeout by killing the container, and keeps its recording", async () => {
    const directory = await writeTree({
      "benchmark.ts": `export default { models: ["control/sleeper"], repetitions: 1, candidate: { timeoutMs: 60_000, isolation: "container" } };\n`,
      "evals/sleepy/prompt.md": "Wait.\n",
      "evals/sleepy/judge.ts": judge,
      "evals/sleepy/controls/sleeper.json": JSON.stringify({
        turns: [
          {
            tools: [{ name: "bash", input: { command: "echo started > started.txt; sleep 290", description: "wait" } }],
          },
          { text: "OK" },
        ],
      }),
    });
    const started = Date.now();
    const run = await runCli(["run", "--benchmark", directory], { timeoutMs: 300_000 });
    expect(Date.now() - started).toBeLessThan(200_000);
    const root = join(directory, "results");
    const store = ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
    const [evalRun] = store.evalRuns();
    const judgeRuns = store.judgeRuns(evalRun!.id);
    store.close();
    expect(evalRun, run.stderr).toMatchObject({ state: "timed_out", input: { isolation: "container" } });
    // The copy-out after the kill brought the workspace back: the judge graded the recording.
    expect(judgeRuns[0]?.state, JSON.stringify(evalRun)).toBe("completed");
    expect(await (await openSandboxEngine("container")).list({ "openeval.eval-run": evalRun!.id })).toEqual([]);
  }, 400_000);

  it("hands the containerized candidate its own key only, and the key appears nowhere under results/", async () => {
    const directory = await writeTree({
      "benchmark.ts": `export default {
  models: ["anthropic/leaky"],
  repetitions: 1,
  candidate: { timeoutMs: 180_000, providers: { anthropic: { npm: "@ai-sdk/openai-compatible", options: { baseURL: ${JSON.stringify(provider.baseURL("leak"))} },
    models: { leaky: { name: "leaky", tool_call: true, limit: { context: 128000, output: 8192 } } } } } },
};\n`,
      "evals/leak/prompt.md": "Reply with OK.\n",
      "evals/leak/judge.ts": judge,
    });
    // A real (non-control) model: containers are its default.
    const run = await runCli(["run", "--benchmark", directory], {
      env: { ANTHROPIC_API_KEY: PLANTED, OPENAI_API_KEY: "sk-openai-not-for-this-candidate-456" },
      timeoutMs: 400_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).not.toContain("unsandboxed");
    const root = join(directory, "results");
    const store = ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
    const [evalRun] = store.evalRuns();
    store.close();
    expect(evalRun).toMatchObject({ state: "completed", input: { isolation: "container" } });
    const files = listFiles(root);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(PLANTED), `${file} contains the planted key`).toBe(false);
      expect(bytes.includes("sk-openai-not-for-this-candidate-456"), `${file} contains another provider's key`).toBe(
        false,
      );
    }
    // The agent did hold its key inside the container: the redaction is what kept it out.
    const leaked = files.filter((file) => readFileSync(file).includes("[REDACTED]"));
    expect(leaked.length).toBeGreaterThan(0);
    expect(provider.requests.length).toBeGreaterThan(0);
  }, 400_000);
});
