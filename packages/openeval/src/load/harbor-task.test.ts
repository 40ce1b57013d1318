import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "./load-benchmark.ts";
import { loadProblems } from "./fixtures/load-problems.ts";

const TASK = "evals/hello";
const BENCHMARK = { "benchmark.ts": `export default { models: ["control/oracle", "control/nop"], repetitions: 1 };\n` };

function task(toml: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...BENCHMARK,
    [`${TASK}/task.toml`]: toml,
    [`${TASK}/instruction.md`]: "Create hello.txt containing Hello.\n",
    [`${TASK}/environment/Dockerfile`]: "FROM debian:bookworm-slim\nWORKDIR /app\n",
    [`${TASK}/tests/test.sh`]: "echo 1 > /logs/verifier/reward.txt\n",
    [`${TASK}/tests/test_hello.py`]: "def test(): pass\n",
    [`${TASK}/solution/solve.sh`]: "echo Hello > /app/hello.txt\n",
    ...extra,
  };
}

function problemsOf(files: Record<string, string>): Promise<string[]> {
  return writeTree(files).then(loadProblems);
}

const FULL = `version = "1.0"

[metadata]
author_name = "someone"
difficulty = "easy"
category = "File Operations"
tags = ["shell"]

[task]
name = "org/hello"
keywords = ["files"]

[verifier]
timeout_sec = 120.0
env = { GREETING = "hi" }

[agent]
timeout_sec = 300.0
setup_timeout_sec = 60.0
user = "agent"

[environment]
build_timeout_sec = 900.0
cpus = 2
memory = "2G"
storage_mb = 10240
allow_internet = false

[solution]
env = { LEVEL = "it's 3" }
`;

describe("a Harbor task folder", () => {
  it("loads as an eval: instruction.md the prompt, task.toml's settings mapped, tests/ and solution/ judge-only", async () => {
    const directory = await writeTree(task(FULL));
    const [evaluation] = (await loadBenchmark(directory)).evals;
    expect(evaluation!.prompt).toEqual({
      text: "Create hello.txt containing Hello.\n",
      title: "org/hello",
      tags: ["shell", "files", "difficulty:easy"],
    });
    expect(evaluation!.settings.timeoutMs).toBe(300_000);
    expect(evaluation!.environment).toEqual({
      directory: join(directory, TASK, "environment"),
      buildTimeoutMs: 900_000,
      limits: { cpus: 2, memoryMiB: 2048, storageMiB: 10240 },
      agentUser: "agent",
    });
    expect(evaluation!.harbor).toMatchObject({
      verifier: { timeoutMs: 120_000, env: { GREETING: "hi" } },
      categories: ["file operations"],
    });
    expect(evaluation!.rubric).toBeNull();
    expect(evaluation!.code).toBeNull();
    expect(evaluation!.criteria).toEqual([]);
    expect(evaluation!.judgeFiles.map((file) => file.path).sort()).toEqual([
      "solution/solve.sh",
      "tests/test.sh",
      "tests/test_hello.py",
    ]);
    expect(Object.keys(evaluation!.controls).sort()).toEqual(["nop", "oracle"]);
    // The oracle runs solve.sh with [solution] env, each value one shell word.
    expect(evaluation!.controls.oracle!.turns[0]!.tools![0]!.input.command).toBe(
      "LEVEL='it'\\''s 3' bash /solution/solve.sh",
    );
    expect(evaluation!.harbor!.mapped).toEqual([
      "Harbor task",
      "agent timeout 300 s",
      "agent's commands as user agent",
      "agent setup: none needed (OpenCode is in the image; nothing is installed at run time)",
      "verifier tests/test.sh, timeout 120 s, env GREETING",
      "environment environment/ (build timeout 900 s; cpus 2, memory 2048 MiB)",
      "storage 10240 MiB: not enforced (a container engine caps storage only on some storage drivers, such as overlay2 on xfs with pquota)",
      "network: none but the model's provider",
      "solution/solve.sh: control/oracle, env LEVEL",
      "tags shell, files, difficulty:easy",
      "category file operations",
    ]);
  });

  it("takes Harbor's defaults for what task.toml leaves out, and says the network default differs", async () => {
    const [evaluation] = (await loadBenchmark(await writeTree(task("")))).evals;
    expect(evaluation!.settings.timeoutMs).toBe(600_000);
    expect(evaluation!.harbor!.verifier.timeoutMs).toBe(600_000);
    expect(evaluation!.environment!.buildTimeoutMs).toBe(600_000);
    expect(evaluation!.harbor!.mapped).toContain(
      "network: none but the model's provider (allow_internet unset; Harbor's default would be open internet)",
    );
  });

  it("names an unknown key at the top level and inside a table", async () => {
    expect(await problemsOf(task('flavour = "x"\n[environment]\nshm_size = 1\n'))).toEqual([
      `${TASK}/task.toml: environment: unknown key "shm_size"; remove or correct it`,
      `${TASK}/task.toml: unknown key "flavour"; remove or correct it`,
    ]);
  });

  it("refuses by name what openeval cannot honour, saying why and what to do", async () => {
    const refusals = await problemsOf(
      task(`[environment]
gpus = 1
gpu_types = ["H100"]
tpus = 8
allow_internet = true
os = "windows"
mcp_servers = []
skills_dir = "skills"
[verifier]
user = "tester"
env = { "NOT A NAME" = "x" }
[[steps]]
instruction = "first"
`),
    );
    expect(refusals).toEqual([
      `${TASK}/task.toml: verifier.env.NOT A NAME: is not an environment variable name (letters, digits and _, not starting with a digit)`,
      `${TASK}/task.toml: verifier.user: openeval runs the verifier as root (without capabilities); only "root" is supported, or remove user`,
      `${TASK}/task.toml: environment.gpus: openeval runs no GPU tasks: its containers get no GPU; remove gpus (or set it to 0)`,
      `${TASK}/task.toml: environment.gpu_types: openeval runs no GPU tasks: its containers get no GPU; remove gpu_types`,
      `${TASK}/task.toml: environment.tpus: openeval runs no TPU tasks: its containers get no TPU; remove tpus (or set it to 0)`,
      `${TASK}/task.toml: environment.allow_internet: the task demands open internet, which openeval never gives a candidate (only its model provider's endpoint and the hosts benchmark.ts candidate.network.allow names); set allow_internet = false or remove it to run the task without internet`,
      `${TASK}/task.toml: environment.os: openeval runs Linux containers only; use "linux" or remove os`,
      `${TASK}/task.toml: environment.mcp_servers: MCP servers for the agent are not supported; remove mcp_servers (the candidate is OpenCode, configured by benchmark.ts and its variants)`,
      `${TASK}/task.toml: environment.skills_dir: skills are given to the candidate by a variant's config/ files here; remove skills_dir and add the skills as a variant`,
      `${TASK}/task.toml: steps: multi-step tasks are not supported: openeval runs one instruction and one verifier; remove steps`,
    ]);
    expect(await problemsOf(task(`version = "2.0"\n`))).toEqual([
      `${TASK}/task.toml: version: is "2.0"; openeval reads Harbor's task format 1.x`,
    ]);
  });

  it("refuses a compose environment, a TOML syntax error, a missing verifier and files that are not Harbor's", async () => {
    expect(await problemsOf(task("", { [`${TASK}/environment/docker-compose.yaml`]: "services: {}\n" }))).toEqual([
      `${TASK}/environment: holds docker-compose.yaml: multi-container (compose) environments are not supported; build one image from environment/Dockerfile`,
    ]);
    const syntax = await problemsOf(task("[agent\ntimeout_sec = 1\n"));
    expect(syntax).toHaveLength(1);
    expect(syntax[0]).toMatch(new RegExp(`^${TASK}/task.toml: is not valid TOML: `));
    const files = task("", { [`${TASK}/prompt.md`]: "Other prompt\n", [`${TASK}/eval.ts`]: "export default {};\n" });
    delete files[`${TASK}/tests/test.sh`];
    expect(await problemsOf(files)).toEqual([
      `${TASK}/prompt.md: a Harbor task's prompt is instruction.md; remove prompt.md`,
      `${TASK}/eval.ts: a Harbor task's settings are its task.toml's; remove eval.ts`,
      `${TASK}/tests: a Harbor task is graded by tests/test.sh, which it does not have; add it`,
    ]);
  });

  it("takes a prebuilt docker_image instead of environment/, and builds environment/ when it has both", async () => {
    const files = task(`[environment]\ndocker_image = "ghcr.io/org/task:1"\n`);
    const [both] = (await loadBenchmark(await writeTree(files))).evals;
    expect(both!.environment!.directory).toMatch(/environment$/);
    expect(both!.environment!.baseImage).toBeUndefined();
    expect(both!.harbor!.mapped).toContain(
      "docker_image ghcr.io/org/task:1: not used; environment/ is built instead (openeval pulls no image)",
    );
    delete files[`${TASK}/environment/Dockerfile`];
    const [evaluation] = (await loadBenchmark(await writeTree(files))).evals;
    expect(evaluation!.environment).toMatchObject({ directory: null, baseImage: "ghcr.io/org/task:1" });
  });
});

describe("the built-in controls", () => {
  it("reserve their names: no control file may be called oracle or nop", async () => {
    expect(await problemsOf(task("", { [`${TASK}/controls/oracle.json`]: '{"turns":[{"text":"x"}]}' }))).toEqual([
      `${TASK}/controls: oracle.json: control/oracle and control/nop are built in (the task's solution/solve.sh, and doing nothing); give the control file another name`,
    ]);
  });

  it("are listed without a control file, and named as built in where an eval has no environment", async () => {
    const files = {
      ...task(""),
      "evals/plain/prompt.md": "Reply OK.\n",
      "evals/plain/judge.ts": "export default () => ({ scores: { ok: true } });\n",
    };
    expect(await problemsOf(files)).toEqual([
      'evals/plain/controls: model "control/oracle" is built in only for evals with environment/ and solution/solve.sh, which plain does not have; remove the model (`openeval calibrate` runs the oracle and nop of every eval that has them)',
      'evals/plain/controls: model "control/nop" is built in only for evals with environment/, which plain does not have; remove the model (`openeval calibrate` runs the oracle and nop of every eval that has them)',
    ]);
  });
});

describe("gates over Harbor tasks", () => {
  it("accept the reward criterion that reward.txt scores", async () => {
    const files = task("");
    files["benchmark.ts"] =
      `export default { models: ["control/oracle"], gates: { criteria: { reward: { min: 1 } } } };\n`;
    const benchmark = await loadBenchmark(await writeTree(files));
    expect(benchmark.settings.gates?.criteria).toEqual({ reward: { min: 1 } });
  });
});
