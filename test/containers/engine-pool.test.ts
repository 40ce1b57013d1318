// A pool of three engines, each a dockerd in its own network namespace on a private /30 (b over TLS with client
// certificates, a and c plain TCP declared insecure): the sandbox and candidate-runtime contracts hold on each; a run
// spreads its candidates over all three, carrying the images it needs, and leaves nothing on any; a kill -9 of one
// engine's dockerd mid-run interrupts only that engine's eval runs, with the cause, and the next run completes every
// slot exactly once. Control models on the runner's 127.0.0.1 reach candidates on every engine through the relay.
import { cp, mkdir, writeFile } from "node:fs/promises";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { containerRuntime } from "../../packages/openeval/src/candidate/runtime/container-runtime.ts";
import { describeRuntimeContract } from "../../packages/openeval/src/candidate/runtime/runtime-contract.case.ts";
import { findLatestRun, ResultsStore, type EvalRun } from "../../packages/openeval/src/records/index.ts";
import { isEngineReachable, openSandboxEngine } from "../../packages/openeval/src/sandbox/index.ts";
import { describeSandboxContract } from "../../packages/openeval/src/sandbox/sandbox-contract.case.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import {
  canStartEnginePool,
  containersCreatedOn,
  dockerFor,
  engineOptionsOf,
  enginesSetting,
  startEnginePool,
  type TestEngine,
  type TestEnginePool,
} from "../helpers/engine-pool.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const BASE_IMAGE = process.env.OPENEVAL_BASE_IMAGE ?? "debian:bookworm-slim";
const ROOT = join(import.meta.dirname, "..", "..");
const NAMES = ["a", "b", "c"];
const possible = canStartEnginePool();
const runnable = possible.ok && (await isEngineReachable());

let pool: TestEnginePool;
let candidateImage: string;

function engineOf(name: string): TestEngine {
  return pool.engines.find((engine) => engine.name === name)!;
}

/** judge.ts of exact-answer that also checks in a verification container (the base image, named by benchmark.ts). */
const VERIFYING_JUDGE = `import type { JudgeContext } from "openeval";
export default async ({ response, verification }: JudgeContext) => {
  const result = await verification.run({ revision: "final", timeoutMs: 120_000, commands: [["sh", "-c", "echo verified"]] });
  return { scores: { correct_answer: response.text === "APPLE" && result.exitCode === 0 && result.stdout.includes("verified") } };
};
`;

/**
 * A benchmark of evals/exact-answer with a `slow` control that sleeps in its workspace before answering; with
 * `verify`, its judge also runs a command in a verification container, placed on the pool like the candidates.
 */
async function poolBenchmark(
  models: string[],
  repetitions: number,
  concurrency: number,
  options: { verify?: boolean } = {},
): Promise<string> {
  const directory = await makeTempDir("openeval-engine-pool-");
  const evalDirectory = join(directory, "evals", "exact-answer");
  await cp(join(ROOT, "evals", "exact-answer"), evalDirectory, { recursive: true });
  await writeFile(
    join(evalDirectory, "controls", "slow.json"),
    JSON.stringify({
      turns: [
        { tools: [{ name: "bash", input: { command: "sleep 40", description: "Wait" } }] },
        { text: "APPLE", usage: { input: 100, output: 1 } },
      ],
    }),
  );
  const candidate = {
    timeoutMs: 300_000,
    isolation: "container",
    container: { engines: enginesSetting(pool.engines, 1) },
  };
  const judge = options.verify ? { judge: { verification: { image: BASE_IMAGE } } } : {};
  if (options.verify) await writeFile(join(evalDirectory, "judge.ts"), VERIFYING_JUDGE);
  await writeFile(
    join(directory, "benchmark.ts"),
    `export default ${JSON.stringify({ models, repetitions, concurrency, candidate, ...judge })};\n`,
  );
  return directory;
}

function readRun(directory: string): { runId: string; evalRuns: EvalRun[]; judged: Set<string> } {
  const runDirectory = findLatestRun(directory)!;
  const runId = basename(runDirectory);
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    const evalRuns = store.evalRuns();
    const judged = new Set(evalRuns.filter((run) => store.judgeRuns(run.id).length > 0).map((run) => run.id));
    return { runId, evalRuns, judged };
  } finally {
    store.close();
  }
}

/** The run's containers still on an engine (none once it ended). */
async function leftOn(engine: TestEngine, runId: string): Promise<string[]> {
  const containers = await dockerFor(engine).listContainers({
    all: true,
    filters: { label: [`openeval.run=${runId}`] },
  });
  return containers.map((container) => container.Id);
}

describe.skipIf(!runnable)("a pool of three engines in their own network namespaces (b over TLS)", () => {
  beforeAll(async () => {
    pool = await startEnginePool({ names: NAMES, tls: ["b"] });
    candidateImage = (await buildCandidateImage()).imageId;
    // The contracts below run on each engine from these images, carried as a run carries them (save → load, id checked).
    const local = await openSandboxEngine("container");
    const baseId = (await local.inspectImage(BASE_IMAGE))!.id;
    for (const engine of pool.engines) {
      const target = await openSandboxEngine("container", { container: engineOptionsOf(engine) });
      await local.carryImage(baseId, target);
      await local.carryImage(candidateImage, target);
      const [repo, tag] = BASE_IMAGE.split(":") as [string, string];
      await dockerFor(engine).getImage(baseId).tag({ repo, tag });
    }
  }, 1_800_000);
  afterAll(async () => {
    await pool?.stop();
  }, 120_000);

  for (const name of NAMES) {
    describeSandboxContract(`sandbox contract on engine ${name}`, {
      engine: () => openSandboxEngine("container", { container: engineOptionsOf(engineOf(name)) }),
      spec: async () => ({ image: BASE_IMAGE }),
      alive: async (sandbox) => {
        const info = await dockerFor(engineOf(name))
          .getContainer(sandbox.id)
          .inspect()
          .catch(() => null);
        return info?.State.Running ?? false;
      },
    });
    describeRuntimeContract(`container on engine ${name}`, {
      backend: containerRuntime,
      engine: () => engineOptionsOf(engineOf(name)),
      leftovers: async (evalRunId) =>
        (await openSandboxEngine("container", { container: engineOptionsOf(engineOf(name)) })).list({
          "openeval.eval-run": evalRunId,
        }),
    });
  }

  describe("a run of six slots", () => {
    let directory: string;
    let run: CliResult;
    let planned: CliResult;
    let listed: CliResult;
    let since: Date;

    beforeAll(async () => {
      // b and c lack the candidate image: the run carries it there from a, its first engine.
      for (const name of ["b", "c"]) await dockerFor(engineOf(name)).getImage(candidateImage).remove({ force: true });
      directory = await poolBenchmark(["control/positive"], 6, 3, { verify: true });
      planned = await runCli(["plan", "--benchmark", directory, "--json"]);
      listed = await runCli(["engines", "--benchmark", directory, "--json"]);
      since = new Date(Date.now() - 1_000);
      run = await runCli(["run", "--benchmark", directory], { timeoutMs: 1_500_000 });
    }, 1_800_000);

    it("is planned with the images to carry to each engine that lacks them, and listed by openeval engines", () => {
      expect(planned.exitCode, planned.stderr).toBe(0);
      expect(JSON.parse(planned.stdout).carry).toEqual([
        { engine: "b", images: [candidateImage] },
        { engine: "c", images: [candidateImage] },
      ]);
      expect(listed.exitCode, listed.stderr).toBe(0);
      const engines = JSON.parse(listed.stdout).engines as { name: string; answers: boolean; images: object }[];
      expect(engines.map(({ name, answers, images }) => ({ name, answers, images }))).toEqual([
        { name: "a", answers: true, images: { candidate: true, verification: true } },
        { name: "b", answers: true, images: { candidate: false, verification: true } },
        { name: "c", answers: true, images: { candidate: false, verification: true } },
      ]);
    });

    it("completes and is graded, with its candidates on all three engines, each engine's containers only its own", async () => {
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
      const { runId, evalRuns, judged } = readRun(directory);
      expect(evalRuns).toHaveLength(6);
      for (const evalRun of evalRuns) expect(evalRun).toMatchObject({ state: "completed", infrastructureError: false });
      expect(judged.size).toBe(6);
      const engines = new Set(evalRuns.map((evalRun) => evalRun.input.engine));
      expect([...engines].sort()).toEqual(NAMES);
      let verifications = 0;
      for (const engine of pool.engines) {
        const ranThere = evalRuns.filter((evalRun) => evalRun.input.engine === engine.name);
        const created = await containersCreatedOn(engine, since);
        const roles = (role: string) => created.filter((container) => container.role === role).length;
        // A candidate and its egress proxy per eval run placed there, the verifications placed there, nothing else.
        expect(roles("candidate")).toBe(ranThere.length);
        expect(roles("egress-proxy")).toBe(ranThere.length);
        expect(created).toHaveLength(2 * ranThere.length + roles("verification"));
        verifications += roles("verification");
        expect(await leftOn(engine, runId)).toEqual([]);
        const verifying = await dockerFor(engine).listContainers({
          all: true,
          filters: { label: ["openeval.sandbox=verification"] },
        });
        expect(verifying).toEqual([]);
      }
      // Every judge run verified once, on whichever engine had room.
      expect(verifications).toBe(6);
      expect(run.stderr).toContain("Carrying image");
      // a and c are plain TCP to another network namespace, declared insecure: every run says so.
      for (const name of ["a", "c"])
        expect(run.stderr).toContain(
          `Engine "${name}" at ${engineOf(name).host} is reached by plain TCP (insecure: true): anyone who can reach that address is root on its host.`,
        );
      expect(run.stderr).not.toContain('Engine "b" at');
      expect(run.stdout).toMatch(/Engines: a \d eval runs?; b \d eval runs?; c \d eval runs?/);
    });
  });

  describe("a kill -9 of one engine's dockerd mid-run", () => {
    let directory: string;
    let first: CliResult;
    let second: CliResult;

    beforeAll(async () => {
      directory = await poolBenchmark(["control/slow"], 3, 3);
      const c = engineOf("c");
      const running = runCli(["run", "--benchmark", directory], { timeoutMs: 1_500_000 });
      // Once a candidate runs on c (its container up, its session under way), c's dockerd is killed.
      const docker = dockerFor(c);
      const deadline = Date.now() + 600_000;
      for (;;) {
        const candidates = await docker.listContainers({ filters: { label: ["openeval.sandbox=candidate"] } });
        if (candidates.length > 0) break;
        if (Date.now() > deadline) throw new Error("no candidate started on engine c within 10 minutes");
        await Bun.sleep(500);
      }
      await Bun.sleep(5_000);
      await pool.kill9("c");
      first = await running;
      second = await runCli(["run", "--benchmark", directory], { timeoutMs: 1_500_000 });
    }, 1_800_000);

    it("records c's eval run interrupted with the cause, unscored, while the others complete", () => {
      expect(first.stderr).toContain('Engine "c"');
      const { evalRuns } = readRun(directory);
      const onC = evalRuns.filter((evalRun) => evalRun.input.engine === "c");
      expect(onC.length).toBeGreaterThan(0);
      expect(onC[0]).toMatchObject({ state: "interrupted", infrastructureError: false });
      expect(onC[0]!.error).toMatch(/^Interrupted: engine "c" lost: /);
    });

    it("is completed by the next run, on the engines that answer, with exactly one completed execution per slot", () => {
      expect(second.exitCode, `${second.stdout}\n${second.stderr}`).toBe(0);
      const { evalRuns, judged } = readRun(directory);
      const completed = evalRuns.filter((evalRun) => evalRun.state === "completed");
      expect(completed.map((evalRun) => evalRun.slot.repetition).sort()).toEqual([1, 2, 3]);
      expect(completed.every((evalRun) => judged.has(evalRun.id))).toBe(true);
      const interrupted = evalRuns.filter((evalRun) => evalRun.state === "interrupted");
      expect(interrupted.every((evalRun) => !judged.has(evalRun.id))).toBe(true);
      expect(completed.filter((evalRun) => evalRun.input.engine === "c")).toEqual([]);
    });
  });
});

describe.skipIf(runnable)("a pool of three engines", () => {
  it.skip(`needs root, iproute2, nsenter, openssl, dockerd and the local engine: ${possible.ok ? "no engine answers at the default socket" : possible.reason}`, () => {});
});

describe("a plain-TCP engine on another machine", () => {
  it("is refused before any spend, naming it", async () => {
    const directory = await makeTempDir("openeval-insecure-engine-");
    await mkdir(join(directory, "evals"), { recursive: true });
    await cp(join(ROOT, "evals", "exact-answer"), join(directory, "evals", "exact-answer"), { recursive: true });
    const candidate = {
      isolation: "container",
      container: { engines: [{ name: "far", host: "tcp://10.77.0.2:2375", capacity: 2 }] },
    };
    await writeFile(
      join(directory, "benchmark.ts"),
      `export default ${JSON.stringify({ models: ["control/positive"], repetitions: 1, candidate })};\n`,
    );
    const refused = await runCli(["run", "--benchmark", directory]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'candidate.container.engines[0].host: engine "far" at tcp://10.77.0.2:2375 is plain TCP on an address other than loopback',
    );
    expect(readdirSync(directory)).not.toContain("results");
  });
});
