// A task's own verifier on a real engine: `bash /tests/test.sh` in a fresh container of the task's environment image
// over the final workspace, its reward read from /logs/verifier. A reward is a score; a reward that is not one is the
// verifier's error; a verifier that writes none (it needed the network), cannot start or runs out of time is an
// infrastructure problem — never a 0. Nothing is left on the engine.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEnvironmentImage } from "../../packages/openeval/src/candidate/index.ts";
import { DEFAULT_VERIFICATION_LIMITS } from "../../packages/openeval/src/judge/verification/index.ts";
import { VerificationReceiptSchema } from "../../packages/openeval/src/recording/index.ts";
import { runTaskVerifier } from "../../packages/openeval/src/judge/verification/task-verifier.ts";
import {
  isEngineReachable,
  openSandboxEngine,
  type ContainerEngine,
} from "../../packages/openeval/src/sandbox/index.ts";
import { constructedEvidence } from "../../packages/openeval/src/judge/verification/fixtures/engine.ts";

const reachable = await isEngineReachable();
let directory: string;
let environment: { image: string; workdir: string };

beforeAll(async () => {
  if (!reachable) return;
  directory = await mkdtemp(join(tmpdir(), "openeval-task-verifier-"));
  await writeFile(
    join(directory, "Dockerfile"),
    "FROM debian:bookworm-slim\nWORKDIR /app\nCOPY stale.txt /app/stale.txt\n",
  );
  await writeFile(join(directory, "stale.txt"), "the image's own file, deleted by the agent\n");
  const engine = (await openSandboxEngine("container")) as ContainerEngine;
  const image = await buildEnvironmentImage(engine, { directory, buildTimeoutMs: 600_000, limits: {} });
  environment = { image: image.imageId, workdir: image.workdir };
}, 1_800_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

async function verify(testScript: string, options: { timeoutMs?: number; env?: Record<string, string> } = {}) {
  const evidence = await constructedEvidence({ initial: { "stale.txt": "old\n" }, final: { "answer.txt": "42\n" } });
  const receipts = await mkdtemp(join(tmpdir(), "openeval-task-verifier-receipts-"));
  try {
    const outcome = await runTaskVerifier({
      environment,
      evidence,
      tests: [{ type: "file", path: "test.sh", data: new TextEncoder().encode(testScript), mode: 0o755 }],
      timeoutMs: options.timeoutMs ?? 60_000,
      env: options.env ?? {},
      limits: DEFAULT_VERIFICATION_LIMITS,
      judgeRun: "judge_task_verifier_test",
      directory: receipts,
    });
    // Kept as any verification is: a receipt the viewer reads, with the reward file as its artifact.
    const receipt = VerificationReceiptSchema.parse(
      JSON.parse(await readFile(join(receipts, outcome.id, "receipt.json"), "utf8")),
    );
    expect(receipt.request).toMatchObject({ image: "environment", commands: [["bash", "/tests/test.sh"]] });
    return { ...outcome, receipt };
  } finally {
    await rm(receipts, { recursive: true, force: true });
  }
}

describe.skipIf(!reachable)("a task's own verifier", () => {
  it("runs over the final workspace only, as root without capabilities or network, and its reward.txt is the reward", async () => {
    const outcome = await verify(
      `#!/bin/bash
[ "$(pwd)" = /app ] && [ "$(cat answer.txt)" = 42 ] && [ ! -e stale.txt ] && [ "$(id -u)" = 0 ] \\
  && grep -q 'CapEff:.0000000000000000' /proc/self/status && [ "$(ls /sys/class/net)" = lo ] && [ "$GREETING" = hi ] \\
  && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt`,
      { env: { GREETING: "hi" } },
    );
    expect(outcome).toMatchObject({ kind: "rewards", rewards: { reward: 1 } });
    expect(outcome.receipt.result.artifacts.map((artifact) => artifact.path)).toEqual(["logs/verifier/reward.txt"]);
  });

  it("reads reward.json as one criterion per key", async () => {
    const outcome = await verify(`echo '{"tests": 0.5, "style": 1}' > /logs/verifier/reward.json`);
    expect(outcome).toMatchObject({ kind: "rewards", rewards: { tests: 0.5, style: 1 } });
  });

  it("is the verifier's error, naming the value, when its reward is outside [0, 1]", async () => {
    expect(await verify("echo 7 > /logs/verifier/reward.txt")).toMatchObject({
      kind: "invalid",
      problem: 'the verifier\'s /logs/verifier/reward.txt gives "reward" 7, outside [0, 1]',
    });
  });

  it("is an infrastructure problem when the verifier writes no reward (it needed the network), never a 0", async () => {
    const outcome = await verify(`set -e
[ "$(ls /sys/class/net)" != lo ] || { echo "no network: cannot install the checker" >&2; exit 1; }
echo 1 > /logs/verifier/reward.txt`);
    expect(outcome.kind).toBe("infrastructure");
    expect(outcome.kind === "infrastructure" && outcome.problem).toBe(
      "the verifier (tests/test.sh) wrote neither /logs/verifier/reward.txt nor reward.json (exit code 1; last output: no network: cannot install the checker); it runs with no network, so a verifier that installs its tools or fetches anything cannot run here",
    );
  });

  it("is an infrastructure problem when the verifier runs out of time, and leaves no container behind", async () => {
    const outcome = await verify("sleep 60; echo 1 > /logs/verifier/reward.txt", { timeoutMs: 2_000 });
    expect(outcome).toMatchObject({
      kind: "infrastructure",
      problem: "the verifier (tests/test.sh) did not finish within its 2 s timeout",
    });
    const engine = (await openSandboxEngine("container")) as ContainerEngine;
    expect(await engine.list({ "openeval.judge-run": "judge_task_verifier_test" })).toEqual([]);
  });
});
