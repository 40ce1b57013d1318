// A Harbor task that names a prebuilt image (task.toml docker_image) instead of environment/: validation refuses one
// the engine does not have, naming it; one it has is used as the task's environment, the harness layer over it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  isEngineReachable,
  openSandboxEngine,
  packTar,
  type ContainerEngine,
} from "../../packages/openeval/src/sandbox/index.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readSlot } from "../helpers/results.ts";

const reachable = await isEngineReachable();
const PREBUILT = `openeval-test-prebuilt:${process.pid}`;

async function benchmarkNaming(image: string): Promise<string> {
  const directory = await makeTempDir("openeval-harbor-prebuilt-");
  const task = join(directory, "evals", "prebuilt");
  mkdirSync(join(task, "tests"), { recursive: true });
  mkdirSync(join(task, "solution"));
  writeFileSync(join(directory, "benchmark.ts"), `export default { models: ["control/oracle"], repetitions: 1 };\n`);
  writeFileSync(join(task, "task.toml"), `[environment]\ndocker_image = "${image}"\n[verifier]\ntimeout_sec = 60.0\n`);
  writeFileSync(join(task, "instruction.md"), "Write ok to /app/ok.txt.\n");
  writeFileSync(
    join(task, "tests", "test.sh"),
    '[ "$(cat /app/ok.txt)" = ok ] && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n',
  );
  writeFileSync(join(task, "solution", "solve.sh"), "echo ok > /app/ok.txt\n");
  return directory;
}

beforeAll(async () => {
  if (!reachable) return;
  const engine = (await openSandboxEngine("container")) as ContainerEngine;
  const dockerfile = new TextEncoder().encode("FROM debian:bookworm-slim\nWORKDIR /app\n");
  await engine.buildImage({
    context: packTar([{ type: "file", path: "Dockerfile", data: dockerfile, mode: 0o644 }]),
    tag: PREBUILT,
    labels: {},
  });
}, 600_000);

afterAll(async () => {
  if (reachable) await Bun.spawn(["docker", "rmi", "--force", PREBUILT], { stdout: "ignore", stderr: "ignore" }).exited;
});

describe.skipIf(!reachable)("a Harbor task's prebuilt docker_image", () => {
  it("is refused by validate, named, when the engine does not have it", async () => {
    const directory = await benchmarkNaming("openeval-test-absent:nowhere");
    const validate = await runCli(["validate", "--benchmark", directory]);
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain(
      "evals/prebuilt/task.toml: environment.docker_image openeval-test-absent:nowhere is not on the engine at",
    );
    expect(validate.stderr).toContain(
      "pull or build it there (openeval fetches nothing), or give the task an environment/ folder",
    );
  });

  it("is the task's environment when the engine has it: the oracle earns its reward there", async () => {
    const directory = await benchmarkNaming(PREBUILT);
    expect((await runCli(["validate", "--benchmark", directory])).exitCode).toBe(0);
    const run = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const { evalRun, judgeRun } = readSlot(onlyRunDirectory(directory), "prebuilt", "control/oracle");
    expect(evalRun).toMatchObject({ state: "completed", input: { isolation: "container" } });
    expect(judgeRun?.scores).toEqual({ reward: { value: 1, source: "tests/test.sh" } });
  });
});
