// The example Harbor tasks (examples/harbor), read in place as evals: each task's environment is built, the built-in
// oracle (its solution/solve.sh) and nop controls and a scripted control run in it, and each task's tests/test.sh
// grades them in a fresh container of its image. The oracle earns 1 on every solvable task and the nop 0; a verifier
// that needs the network is an infrastructure error, never a 0; calibration passes the solvable tasks; a candidate
// never sees tests/ or solution/ (the oracle alone gets solution/); a second `openeval image` builds nothing.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../packages/openeval/src/recording/index.ts";
import type { EvalRun, JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readSlot } from "../helpers/results.ts";

const reachable = await isEngineReachable();
const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "harbor");

/** A scripted candidate: it solves hello-file, gets fix-median wrong, and looks for judge material in its container. */
const look =
  "find / \\( -path /proc -o -path /sys \\) -prune -o \\( -name test.sh -o -name solve.sh -o -name test_stats.py \\) -print 2>/dev/null | wc -l | sed 's/^/found /'\n";
const SCRIPTED: Record<string, object> = {
  "hello-file": {
    turns: [
      { tools: [{ name: "write", input: { filePath: "/app/look.sh", content: look } }] },
      { tools: [{ name: "bash", input: { command: "bash look.sh > seen.txt", description: "look around" } }] },
      { tools: [{ name: "write", input: { filePath: "/app/hello.txt", content: "Hello, world!\n" } }] },
      { text: "done" },
    ],
  },
  "fix-median": {
    turns: [
      {
        tools: [
          { name: "write", input: { filePath: "/app/stats.py", content: "def median(values):\n    return 0\n" } },
        ],
      },
      { text: "done" },
    ],
  },
  "fetch-checker": {
    turns: [{ tools: [{ name: "write", input: { filePath: "/app/done.txt", content: "done\n" } }] }, { text: "done" }],
  },
};

let directory: string;
let run: CliResult;

beforeAll(async () => {
  if (!reachable) return;
  directory = await makeTempDir("openeval-harbor-");
  cpSync(EXAMPLE, directory, { recursive: true });
  for (const [task, script] of Object.entries(SCRIPTED)) {
    mkdirSync(join(directory, "evals", task, "controls"));
    writeFileSync(join(directory, "evals", task, "controls", "scripted.json"), JSON.stringify(script));
  }
  writeFileSync(
    join(directory, "benchmark.ts"),
    `export default { models: ["control/oracle", "control/nop", "control/scripted"], repetitions: 1 };\n`,
  );
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 1_500_000 });
}, 1_800_000);

describe.skipIf(!reachable)("the example Harbor tasks", () => {
  it("earn the oracle 1 and the nop 0 on every solvable task, and the scripted control what its work deserves", () => {
    expect(rewards()).toEqual({
      "hello-file × control/oracle": 1,
      "hello-file × control/nop": 0,
      "hello-file × control/scripted": 1,
      "fix-median × control/oracle": 1,
      "fix-median × control/nop": 0,
      "fix-median × control/scripted": 0,
    });
  });

  it("records a verifier that needs the network as an infrastructure error of the judge run, never a 0", () => {
    for (const model of ["control/oracle", "control/nop", "control/scripted"]) {
      const { judgeRun } = recorded("fetch-checker", model);
      expect(judgeRun, run.stderr).toMatchObject({ state: "failed", scores: null, infrastructureError: true });
      expect(judgeRun!.error).toContain("wrote neither /logs/verifier/reward.txt nor reward.json");
      expect(judgeRun!.error).toContain("no network: cannot install the checker from the package mirror");
    }
    // Some slots are unjudged: the run is incomplete, never passed.
    expect(run.exitCode).toBe(3);
  });

  it("keeps tests/ and solution/ out of a candidate's container", async () => {
    const { evalRun } = recorded("hello-file", "control/scripted");
    await using recording = await readRecording(runDirectory(), evalRun.id);
    expect(await recording.workspace.text("seen.txt")).toBe("found 0\n");
  });

  it("passes calibration on the solvable tasks and says the one with a broken verifier is not judged", async () => {
    const calibrate = await runCli(["calibrate", "--benchmark", directory, "--json"], { timeoutMs: 1_500_000 });
    const report = JSON.parse(calibrate.stdout) as { checks: { evalId: string; control: string; status: string }[] };
    const statuses = Object.fromEntries(
      report.checks
        .filter((check) => check.control === "oracle" || check.control === "nop")
        .map((check) => [`${check.evalId} × ${check.control}`, check.status]),
    );
    expect(statuses).toEqual({
      "hello-file × oracle": "pass",
      "fix-median × oracle": "pass",
      "fetch-checker × oracle": "unjudged",
      "hello-file × nop": "pass",
      "fix-median × nop": "pass",
      "fetch-checker × nop": "unjudged",
    });
  });

  it("builds nothing on a second `openeval image --environments`", async () => {
    const image = await runCli(["image", "--environments", "--benchmark", directory, "--json"]);
    expect(image.exitCode, image.stderr).toBe(0);
    expect(image.stderr).not.toContain("» Building");
    expect(Object.keys(JSON.parse(image.stdout).environments).sort()).toEqual([
      "fetch-checker",
      "fix-median",
      "hello-file",
    ]);
  });
});

function recorded(evalId: string, model: string): { evalRun: EvalRun; judgeRun?: JudgeRun } {
  return readSlot(runDirectory(), evalId, model);
}

function rewards(): Record<string, number | null> {
  const result: Record<string, number | null> = {};
  for (const evalId of ["hello-file", "fix-median"])
    for (const model of ["control/oracle", "control/nop", "control/scripted"]) {
      const { judgeRun } = recorded(evalId, model);
      result[`${evalId} × ${model}`] = judgeRun?.scores?.reward?.value ?? null;
    }
  return result;
}

function runDirectory(): string {
  return onlyRunDirectory(directory);
}
