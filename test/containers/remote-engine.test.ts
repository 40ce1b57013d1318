// The container engine on another dockerd (DOCKER_HOST=tcp://…, candidate.container.host): the whole sandbox
// contract holds there, with nothing taken from the runner's filesystem or its own engine.
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectContainerEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { describeSandboxContract } from "../../packages/openeval/src/sandbox/sandbox-contract.case.ts";
import { startSecondEngine, type SecondEngine } from "./second-engine.ts";

const BASE_IMAGE = process.env.OPENEVAL_BASE_IMAGE ?? "debian:bookworm-slim";
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
    const remote = await connectContainerEngine({ host: second.host });
    expect(remote.address).toBe(second.host);
    const sandbox = await remote.create({ image: BASE_IMAGE, labels: { "openeval.test": "remote-engine" }, folders: ["/work"], workdir: "/work", limits: { cpus: 1, memoryMiB: 128, pids: 64, tmpMiB: 16 }, lifetimeMs: 60_000 });
    try {
      expect(await remote.list({ "openeval.test": "remote-engine" })).toEqual([sandbox.id]);
      expect(await (await connectContainerEngine()).list({ "openeval.test": "remote-engine" })).toEqual([]);
    } finally {
      await sandbox.remove();
    }
  });

  describeSandboxContract("sandbox contract on the second engine", {
    engine: () => connectContainerEngine({ host: second.host }),
    spec: async () => ({ image: BASE_IMAGE }),
    alive: async (sandbox) => {
      const [host, port] = second.host.replace("tcp://", "").split(":");
      const info = await new Docker({ host, port: Number(port), protocol: "http" }).getContainer(sandbox.id).inspect().catch(() => null);
      return info?.State.Running ?? false;
    },
  });
});
