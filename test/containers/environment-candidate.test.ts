// Evals that bring their own environment (environment/Dockerfile): the candidate — a control model, which would
// otherwise run on this machine — runs in the image built from it with the harness layer on top, its workspace the
// image's WORKDIR (the image's files there are its initial state). As root (no USER) it writes anywhere on a writable
// root yet holds no capability, cannot touch OpenCode's files or the harness's, and sees no network; as the
// Dockerfile's USER the root stays read-only. An environment that does not build is that eval's setup error, and
// changing one Dockerfile plans only that eval's candidates again.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../packages/openeval/src/recording/index.ts";
import type { EvalRun, JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readSlot } from "../helpers/results.ts";

const reachable = await isEngineReachable();

const probe = [
  "echo uid $(id -u)",
  "grep -E '^Cap(Eff|Bnd):' /proc/self/status",
  "cat /oe-home/opencode/data/opencode/opencode.db > /dev/null 2>&1 && echo HIT database || echo DENIED database",
  "(echo forged > /oe/as-tool) 2>/dev/null && echo HIT launcher || echo DENIED launcher",
  "mv /oe /oe-moved 2>/dev/null && echo HIT moved || echo DENIED moved",
  "(touch /usr/local/bin/made-by-agent) 2>/dev/null && echo root writable || echo root read-only",
  "echo interfaces $(ls /sys/class/net | tr '\\n' ' ')",
  "find / -xdev \\( -name test.sh -o -name solve.sh -o -name judge.ts \\) 2>/dev/null | sed 's/^/FOUND /'",
  "echo changed >> seed.txt",
].join("\n");

function environmentEval(dockerfile: string): Record<string, string> {
  return {
    "environment/Dockerfile": dockerfile,
    "environment/seed.txt": "seed\n",
    "prompt.md": "Probe your environment.\n",
    "judge.ts": `export default async ({ workspace }) => ({ scores: { probed: (await workspace.text("found.txt")).includes("interfaces") } });\n`,
    "solution/solve.sh": "echo judge-only\n",
    "controls/prober.json": JSON.stringify({
      turns: [
        { tools: [{ name: "write", input: { filePath: "/app/probe.sh", content: `${probe}\n` } }] },
        { tools: [{ name: "bash", input: { command: "bash probe.sh > found.txt 2>&1", description: "probe" } }] },
        { text: "done" },
      ],
    }),
  };
}

/** Checks the final workspace in a fresh container of the eval's own image, with ctx.verification. */
const VERIFYING_JUDGE = `export default async ({ workspace, verification }) => {
  const checked = await verification.run({
    image: "environment",
    timeoutMs: 60_000,
    commands: [["sh", "-c", "pwd; cat seed.txt; echo uid $(id -u); echo interfaces $(ls /sys/class/net); ls -A /oe-home"]],
  });
  return { scores: { probed: (await workspace.text("found.txt")).includes("interfaces"), verified: checked.exitCode === 0 }, stdout: checked.stdout };
};
`;

function inEval(id: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [`evals/${id}/${path}`, text]));
}

let directory: string;
let run: CliResult;

beforeAll(async () => {
  if (!reachable) return;
  const root = "FROM debian:bookworm-slim\nCOPY seed.txt /app/seed.txt\nWORKDIR /app\n";
  const user =
    "FROM debian:bookworm-slim\nRUN useradd --uid 1000 --create-home app && mkdir /app && chown app /app\nCOPY --chown=app seed.txt /app/seed.txt\nWORKDIR /app\nUSER app\n";
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/prober"], repetitions: 1, candidate: { timeoutMs: 180_000 } };\n`,
    ...inEval("as-root", { ...environmentEval(root), "judge.ts": VERIFYING_JUDGE }),
    ...inEval("as-user", environmentEval(user)),
    ...inEval("broken", environmentEval("FROM debian:bookworm-slim\nRUN echo 'cannot build' && exit 4\n")),
  });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 900_000 });
}, 1_200_000);

describe.skipIf(!reachable)("an eval with its own environment", () => {
  it("runs a control model's candidate in the environment image, in a container", () => {
    const { evalRun, judgeRun } = recorded("as-root");
    expect(evalRun, run.stderr).toMatchObject({
      state: "completed",
      infrastructureError: false,
      input: { isolation: "container" },
    });
    expect(judgeRun?.scores).toEqual({
      probed: { value: 1, source: "judge.ts" },
      verified: { value: 1, source: "judge.ts" },
    });
  });

  it("verifies in a fresh container of the environment image: the final workspace at its working directory, no network", () => {
    const { judgeRun } = recorded("as-root");
    // Nothing of the candidate's container is left: the harness's home folder is the image's, empty.
    expect((judgeRun?.output as { stdout: string }).stdout).toBe("/app\nseed\nchanged\nuid 0\ninterfaces lo\n");
  });

  it("as root: a writable root, no capability, OpenCode's and the harness's files out of reach, no network, no judge files", async () => {
    const found = await workspaceFile("as-root", "found.txt");
    expect(found).toContain("uid 0\n");
    expect(found).toMatch(/CapEff:\s+0{16}\nCapBnd:\s+0{16}\n/);
    expect(found).toContain("DENIED database\nDENIED launcher\nDENIED moved\nroot writable\ninterfaces lo\n");
    expect(found).not.toContain("FOUND");
  });

  it("as the Dockerfile's USER: its uid, and a read-only root", async () => {
    const found = await workspaceFile("as-user", "found.txt");
    expect(found).toContain("uid 1000\n");
    expect(found).toContain("DENIED database\nDENIED launcher\nDENIED moved\nroot read-only\ninterfaces lo\n");
    expect(recorded("as-user").judgeRun?.scores).toEqual({ probed: { value: 1, source: "judge.ts" } });
  });

  it("starts from the image's working directory: its files are the initial state, the agent's changes the diff", async () => {
    expect(await workspacePaths("as-root", "initial")).toEqual(["seed.txt"]);
    expect(await workspaceFile("as-root", "seed.txt", "initial")).toBe("seed\n");
    expect(await workspacePaths("as-root", "final")).toEqual(["found.txt", "probe.sh", "seed.txt"]);
    expect(await workspaceFile("as-root", "seed.txt")).toBe("seed\nchanged\n");
  });

  it("records an environment that does not build as that eval's setup error, naming the step and its log", () => {
    expect(run.exitCode).not.toBe(0);
    const { evalRun, judgeRun } = recorded("broken");
    expect(evalRun).toMatchObject({ state: "failed", infrastructureError: true, setupError: true });
    expect(evalRun.error).toMatch(
      /The environment of eval "broken" did not build, so its candidates did not start: openeval-env-base:\w+ did not build: .*non-zero code: 4/,
    );
    const log = /The whole build log: (\S+)$/.exec(evalRun.error!)![1]!;
    expect(readFileSync(log, "utf8")).toContain("cannot build");
    expect(judgeRun).toBeUndefined();
  });

  it("plans only the changed eval's candidates again once its Dockerfile changes", async () => {
    const dockerfile = join(directory, "evals", "as-user", "environment", "Dockerfile");
    writeFileSync(dockerfile, `${readFileSync(dockerfile, "utf8")}ENV CHANGED=1\n`);
    const plan = JSON.parse((await runCli(["plan", "--benchmark", directory, "--json"])).stdout);
    const work = plan.work as { eval: string; action: string }[];
    expect(Object.fromEntries(work.map((slot) => [slot.eval, slot.action]))).toEqual({
      "as-root": "reuse",
      "as-user": "candidate",
      // Its environment is still the one that did not build: the failure waits for a fix, or retry.
      broken: "failed",
    });
    expect(plan.unbuiltEnvironments).toEqual(["as-user", "broken"]);
  });
});

function recorded(evalId: string): { evalRun: EvalRun; judgeRun?: JudgeRun } {
  return readSlot(runDirectory(), evalId, "control/prober");
}

async function workspaceFile(evalId: string, path: string, revision: "initial" | "final" = "final"): Promise<string> {
  await using recording = await readRecording(runDirectory(), recorded(evalId).evalRun.id);
  return recording.workspace.text(path, revision);
}

async function workspacePaths(evalId: string, revision: "initial" | "final"): Promise<string[]> {
  await using recording = await readRecording(runDirectory(), recorded(evalId).evalRun.id);
  return recording.workspace.files(revision).map((file) => file.path);
}

function runDirectory(): string {
  return onlyRunDirectory(directory);
}
