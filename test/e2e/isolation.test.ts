// Journey: choosing where candidates run. A real model defaults to a container; with no engine
// the run stops before the model's provider sees a single request (exit 2) and says how to get one, or to pass
// `--isolation process`. Bad isolation input is refused naming the flag or the key.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

let provider: ControlServer;
let directory: string;
const NO_ENGINE = { DOCKER_HOST: "unix:///nonexistent/openeval-isolation-test.sock" };

function benchmarkSource(candidateExtra = ""): string {
  return `export default {
  models: ["local/answer"],
  repetitions: 1,
  candidate: { timeoutMs: 60_000, ${candidateExtra} providers: { local: { npm: "@ai-sdk/openai-compatible", options: { baseURL: ${JSON.stringify(provider.baseURL("answer"))} },
    models: { answer: { name: "answer", tool_call: true, limit: { context: 128000, output: 8192 } } } } } },
};\n`;
}

beforeAll(async () => {
  provider = await startControlServer({ controls: { answer: { answer: { turns: [{ text: "OK" }] } } } });
  directory = await writeTree({
    "benchmark.ts": benchmarkSource(),
    "evals/answer/prompt.md": "Reply with OK.\n",
    "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { answered: response.text.trim() === "OK" } });\n`,
  });
});

afterAll(async () => {
  await provider?.close();
});

describe("candidate isolation", () => {
  it("stops a real model with no container engine before any model call (exit 2), naming the remedies", async () => {
    const result = await runCli(["run", "--benchmark", directory], { env: NO_ENGINE });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("local/answer runs in containers");
    expect(result.stderr).toContain("No container engine answers at unix:///nonexistent/openeval-isolation-test.sock");
    expect(result.stderr).toContain("sudo bash .ci/setup-container-engine.sh");
    expect(result.stderr).toContain("DOCKER_HOST");
    expect(result.stderr).toContain("--isolation process");
    expect(provider.requests).toEqual([]);
    expect(existsSync(join(directory, "results"))).toBe(false);
  });

  it("lets `openeval plan` show the work without an engine (planning calls no model)", async () => {
    const result = await runCli(["plan", "--benchmark", directory, "--json"], { env: NO_ENGINE });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).work.map((slot: { action: string }) => slot.action)).toEqual(["candidate"]);
  });

  it("refuses an --isolation value it does not know, naming the flag and the choices", async () => {
    const result = await runCli(["run", "--benchmark", directory, "--isolation", "vm"], { env: NO_ENGINE });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--isolation takes container or process; got "vm"');
    expect(provider.requests).toEqual([]);
  });

  it("refuses a candidate.isolation or candidate.container key it does not know, naming it", async () => {
    const bad = await writeTree({
      "benchmark.ts": `export default { models: ["p/m"], candidate: { isolation: "vm", container: { gpus: 1 } } };\n`,
      "evals/answer/prompt.md": "x\n",
      "evals/answer/judge.ts": "export default () => ({ scores: { ok: true } });\n",
    });
    const result = await runCli(["validate", "--benchmark", bad]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/candidate\.isolation/);
    expect(result.stderr).toMatch(/gpus/);
  });

  it("refuses --isolation process for an eval with its own environment, naming it, and runs the others without it", async () => {
    const positive = JSON.stringify({ turns: [{ text: "OK" }] });
    const confined = await writeTree({
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
      "evals/boxed/prompt.md": "Reply with OK.\n",
      "evals/boxed/judge.ts": "export default () => ({ scores: { ok: true } });\n",
      "evals/boxed/environment/Dockerfile": "FROM debian:bookworm-slim\nWORKDIR /app\n",
      "evals/boxed/controls/positive.json": positive,
      "evals/plain/prompt.md": "Reply with OK.\n",
      "evals/plain/judge.ts": "export default () => ({ scores: { ok: true } });\n",
      "evals/plain/controls/positive.json": positive,
    });
    const refused = await runCli(["run", "--benchmark", confined, "--isolation", "process"], { env: NO_ENGINE });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'error OE_ENVIRONMENT_NEEDS_CONTAINER: --isolation process cannot run eval "boxed": it brings its own environment (environment/), which only a container runs. Remove --isolation process, or leave it out with --only-eval',
    );
    expect(existsSync(join(confined, "results"))).toBe(false);
    const plan = await runCli(["plan", "--benchmark", confined, "--json"], { env: NO_ENGINE });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).work.map((slot: { action: string }) => slot.action)).toEqual([
      "candidate",
      "candidate",
    ]);
    // Left out with --only-eval, as the error says, the eval with an environment needs neither a container nor an engine.
    const plain = await runCli(["run", "--benchmark", confined, "--isolation", "process", "--only-eval", "plain"], {
      env: NO_ENGINE,
    });
    expect(plain.exitCode, plain.stderr).toBe(0);
  });

  it("refuses `openeval image --environments` for a benchmark with no environment to build", async () => {
    const result = await runCli(["image", "--environments", "--benchmark", directory], { env: NO_ENGINE });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "--environments takes a benchmark folder (--benchmark) with evals that have environment/",
    );
  });
});
