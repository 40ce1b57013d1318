// The container engine on another dockerd (DOCKER_HOST=tcp://…, candidate.container.host): the whole sandbox
// contract holds there, with nothing taken from the runner's filesystem or its own engine, and a candidate run with
// candidate.container.host creates its containers there and none on the runner's engine.
import { readdirSync } from "node:fs";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/index.ts";
import { openSandboxEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { describeSandboxContract } from "../../packages/openeval/src/sandbox/sandbox-contract.case.ts";
import { startSecondEngine, type SecondEngine } from "./second-engine.ts";

const BASE_IMAGE = process.env.OPENEVAL_BASE_IMAGE ?? "debian:bookworm-slim";
const ROOT = join(import.meta.dirname, "..", "..");
const canStart = (await isEngineReachable()) && process.getuid?.() === 0 && Bun.which("dockerd") !== null;
let second: SecondEngine;

describe.skipIf(!canStart)("a second engine on a 127.0.0.1 TCP socket", () => {
  beforeAll(async () => {
    second = await startSecondEngine(BASE_IMAGE);
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
  }, 60_000);

  it("is another engine: the runner's engine does not see its sandboxes", async () => {
    const remote = await openSandboxEngine("container", { container: { host: second.host } });
    expect(remote.address).toBe(second.host);
    const sandbox = await remote.create({
      image: BASE_IMAGE,
      labels: { "openeval.test": "remote-engine" },
      folders: ["/work"],
      workdir: "/work",
      limits: { cpus: 1, memoryMiB: 128, pids: 64, tmpMiB: 16 },
      lifetimeMs: 60_000,
    });
    try {
      expect(await remote.list({ "openeval.test": "remote-engine" })).toEqual([sandbox.id]);
      expect(await (await openSandboxEngine("container")).list({ "openeval.test": "remote-engine" })).toEqual([]);
    } finally {
      await sandbox.remove();
    }
  });

  describeSandboxContract("sandbox contract on the second engine", {
    engine: () => openSandboxEngine("container", { container: { host: second.host } }),
    spec: async () => ({ image: BASE_IMAGE }),
    alive: async (sandbox) => {
      const [host, port] = second.host.replace("tcp://", "").split(":");
      const info = await new Docker({ host, port: Number(port), protocol: "http" })
        .getContainer(sandbox.id)
        .inspect()
        .catch(() => null);
      return info?.State.Running ?? false;
    },
  });

  describe("a candidate run with candidate.container.host", () => {
    let directory: string;
    let run: CliResult;
    let since: number;

    beforeAll(async () => {
      // The candidate image reaches the second engine as it would from a registry: nothing is built there.
      await second.load((await buildCandidateImage()).tag);
      directory = await makeTempDir("openeval-remote-candidate-");
      await cp(join(ROOT, "evals", "exact-answer"), join(directory, "evals", "exact-answer"), { recursive: true });
      const candidate = { timeoutMs: 180_000, isolation: "container", container: { host: second.host } };
      await writeFile(
        join(directory, "benchmark.ts"),
        `export default { models: ["control/positive"], repetitions: 1, candidate: ${JSON.stringify(candidate)} };\n`,
      );
      since = Math.floor(Date.now() / 1_000) - 1;
      run = await runCli(["run", "--benchmark", directory], { timeoutMs: 600_000 });
    }, 900_000);

    /** The run's containers that an engine created (by their openeval.sandbox label), from its event log. */
    function createdOn(host: string | null, runId: string): string[] {
      const until = Math.ceil(Date.now() / 1_000) + 1;
      const events = Bun.spawnSync(
        [
          "/usr/bin/docker",
          "events",
          "--since",
          String(since),
          "--until",
          String(until),
          "--filter",
          "type=container",
          "--filter",
          "event=create",
          "--filter",
          `label=openeval.run=${runId}`,
          "--format",
          '{{index .Actor.Attributes "openeval.sandbox"}}',
        ],
        { env: { ...process.env, ...(host ? { DOCKER_HOST: host } : {}) }, stdout: "pipe", stderr: "pipe" },
      );
      expect(events.exitCode, events.stderr.toString()).toBe(0);
      return events.stdout.toString().split("\n").filter(Boolean).sort();
    }

    it("completes and is graded; its candidate and egress proxy ran on the second engine, none on the runner's", async () => {
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
      const runId = readdirSync(join(directory, "results"))[0]!;
      const store = ResultsStore.open(join(directory, "results", runId), { readonly: true });
      try {
        const [evalRun] = store.evalRuns();
        expect(evalRun).toMatchObject({
          state: "completed",
          infrastructureError: false,
          input: { isolation: "container" },
        });
        expect(store.judgeRuns(evalRun!.id)[0]?.scores).toEqual({ correct_answer: { value: 1, source: "judge.ts" } });
      } finally {
        store.close();
      }
      expect(createdOn(second.host, runId)).toEqual(["candidate", "egress-proxy"]);
      expect(createdOn(null, runId)).toEqual([]);
      expect(
        await (await openSandboxEngine("container", { container: { host: second.host } })).list({
          "openeval.run": runId,
        }),
      ).toEqual([]);
    });
  });
});
