// The candidate container pair starts in the background as soon as it is opened, its steps side by side (the egress
// proxy beside the candidate container; copy-in beside the forwarders). Whatever the order they finish or fail in,
// OpenCode starts only once all are ready, and nothing outlives close: not after a launch, not after a start that
// failed on one side while the other was still being made, not when the caller closes before launching. The egress
// proxy goes as soon as OpenCode has exited, while the session's files are copied out.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import {
  openCandidateContainer,
  type CandidateContainerOptions,
} from "../../packages/openeval/src/candidate/container/candidate-container.ts";
import { planEgress } from "../../packages/openeval/src/candidate/container/egress.ts";
import { STANDARD_LAYOUT } from "../../packages/openeval/src/candidate/container/container-layout.ts";
import { isEngineReachable, openSandboxEngine } from "../../packages/openeval/src/sandbox/index.ts";
import { PHASE_CHANNEL, type PhaseTiming } from "../../packages/openeval/src/util/phase-timing.ts";

const reachable = await isEngineReachable();
const RUN_LABEL = `start-test-${process.pid}`;
let image: string;
let scratch: string;

/** What is left on the engine with this test's run label: containers and volumes. */
async function leftovers(): Promise<string[]> {
  const engine = await openSandboxEngine("container");
  const containers = await engine.list({ "openeval.run": RUN_LABEL });
  const volumes = Bun.spawnSync(["docker", "volume", "ls", "-q", "--filter", `label=openeval.run=${RUN_LABEL}`])
    .stdout.toString()
    .trim();
  return [...containers, ...volumes.split("\n").filter(Boolean)];
}

/** Resolves once `phase` of `evalRunId` has ended (its timing is published when its step settles). */
function phaseEnded(evalRunId: string, phase: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      const timing = message as PhaseTiming;
      if (timing.owner !== evalRunId || timing.phase !== phase) return;
      unsubscribe(PHASE_CHANNEL, listener);
      resolve();
    };
    subscribe(PHASE_CHANNEL, listener);
  });
}

function options(
  evalRunId: string,
  log: string[],
  overrides: Partial<CandidateContainerOptions> = {},
): CandidateContainerOptions {
  return {
    evalRunId,
    image,
    layout: STANDARD_LAYOUT,
    engine: {},
    scratch,
    workspace: join(scratch, "workspace"),
    solution: null,
    limits: {},
    labels: { "openeval.run": RUN_LABEL, "openeval.eval-run": evalRunId },
    // A provider on this machine's loopback: one forwarder inside the container.
    egress: planEgress("http://127.0.0.1:45999/v1", []),
    timeoutMs: 60_000,
    preparationMs: 0,
    egressLog: { write: (chunk) => void log.push(new TextDecoder().decode(chunk)) },
    ...overrides,
  };
}

beforeAll(async () => {
  if (!reachable) return;
  image = (await buildCandidateImage()).imageId;
  scratch = await mkdtemp(join(tmpdir(), "openeval-start-test-"));
}, 1_800_000);

afterAll(async () => {
  if (!reachable) return;
  await (await openSandboxEngine("container")).reap({ "openeval.run": RUN_LABEL });
  await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(!reachable)("a candidate container's start", () => {
  it("has the proxy and the forwarder listening and the scratch folder (with the tool user's HOME) in before OpenCode starts; close leaves nothing", async () => {
    await mkdir(join(scratch, "workspace"), { recursive: true });
    await writeFile(join(scratch, "workspace", "notes.txt"), "seed\n");
    const log: string[] = [];
    const container = await openCandidateContainer(options("eval_ok", log));
    try {
      const launched = await container.launch({
        argv: ["opencode", "--version"],
        cwd: join(scratch, "workspace"),
        env: {},
        stdin: "",
      });
      const [version, exitCode] = await Promise.all([new Response(launched.stdout).text(), launched.exited]);
      expect(exitCode).toBe(0);
      expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
      expect(log.join("")).toContain("listening /run/openeval-egress/egress.sock");
      expect(log.join("")).toContain("listening 127.0.0.1:45999");
      await launched.collect?.();
      // After OpenCode's exit the proxy goes with the copy-out; the candidate's container stays until close.
      const engine = await openSandboxEngine("container");
      expect(await engine.list({ "openeval.run": RUN_LABEL, "openeval.sandbox": "egress-proxy" })).toEqual([]);
      expect(await engine.list({ "openeval.run": RUN_LABEL, "openeval.sandbox": "candidate" })).toHaveLength(1);
      expect(existsSync(join(scratch, "tool-home", "tmp"))).toBe(true);
      expect(await Bun.file(join(scratch, "workspace", "notes.txt")).text()).toBe("seed\n");
    } finally {
      await container.close();
    }
    expect(await leftovers()).toEqual([]);
  });

  it("that fails on one side while the other is still being made removes both once both settled", async () => {
    // The engine refuses the candidate container's 1 MiB at once, while the egress proxy is still being created.
    const proxyMade = phaseEnded("eval_refused", "container.proxy-create");
    const container = await openCandidateContainer(options("eval_refused", [], { limits: { memoryMiB: 1 } }));
    await expect(
      container.launch({ argv: ["opencode", "--version"], cwd: join(scratch, "workspace"), env: {}, stdin: "" }),
    ).rejects.toThrow(/Could not create a container on .*[Mm]emory/);
    // Had the failure been thrown at once, the proxy would be created after the removal, and stay.
    await proxyMade;
    expect(await leftovers()).toEqual([]);
  });

  it("is removed when the caller closes before launching", async () => {
    const container = await openCandidateContainer(options("eval_unused", []));
    await container.close();
    expect(await leftovers()).toEqual([]);
  });
});
