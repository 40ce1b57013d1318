// eval.ts prepare with real OpenCode and a scripted control: a step's output is in the candidate's
// initial snapshot and not in its diff (it earns no credit); a failing step is a preparation error — recorded with
// the step, exit code and output, never scored — that `openeval retry` executes again once the eval is fixed.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../packages/openeval/src/index.ts";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readEvalRuns } from "../helpers/results.ts";

const answers = {
  turns: [
    { tools: [{ name: "bash", input: { command: "echo 42 > answer.txt", description: "answer" } }] },
    { text: "Done." },
  ],
};
const evalFiles = (id: string, setup: string) => ({
  [`evals/${id}/prompt.md`]: "Write 42 to answer.txt.\n",
  [`evals/${id}/judge.ts`]: `export default ({ workspace }) => ({ scores: { answered: workspace.files().some((file) => file.path === "answer.txt") } });\n`,
  [`evals/${id}/eval.ts`]: `export default { prepare: [{ argv: ["sh", "setup.sh"] }, { cwd: "build", argv: ["sh", "-c", "echo step two > second.txt"] }] };\n`,
  [`evals/${id}/workspace/setup.sh`]: setup,
  [`evals/${id}/controls/positive.json`]: JSON.stringify(answers),
});
const WORKING_SETUP = "mkdir -p build && echo prepared > build/generated.txt && echo setup done\n";

let directory: string;

const runDirectory = () => onlyRunDirectory(directory);
const evalRuns = () => readEvalRuns(runDirectory());

beforeAll(async () => {
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
    ...evalFiles("prepared", WORKING_SETUP),
    ...evalFiles("broken", "echo cannot build >&2\nexit 7\n"),
  });
});

describe("eval.ts prepare", { timeout: 300_000 }, () => {
  it("puts a step's output in the initial snapshot, not in the candidate's diff, and records a failing step as a preparation error", async () => {
    const result = await runCli(["run", "--benchmark", directory], { timeoutMs: 240_000 });
    const runs = evalRuns();
    const prepared = runs.find((evalRun) => evalRun.slot.evalId === "prepared")!;
    expect(prepared.state, prepared.error ?? "").toBe("completed");
    await using recording = await readRecording(runDirectory(), prepared.id);
    const initial = recording.workspace.files("initial").map((file) => file.path);
    expect(initial).toEqual(expect.arrayContaining(["setup.sh", "build/generated.txt", "build/second.txt"]));
    expect(await recording.workspace.text("build/generated.txt", "initial")).toBe("prepared\n");
    expect((await recording.workspace.patches()).map((patch) => patch.path)).toEqual(["answer.txt"]);
    const log = await readFile(join(runDirectory(), "eval-runs", prepared.id, "logs", "prepare.log"), "utf8");
    expect(log).toContain("$ (cd . && sh setup.sh)\nsetup done\n[exited 0]");

    const broken = runs.find((evalRun) => evalRun.slot.evalId === "broken")!;
    expect(broken).toMatchObject({ state: "failed", infrastructureError: true, evidence: null });
    expect(broken.preparationError).toEqual({
      step: 1,
      cwd: ".",
      argv: ["sh", "setup.sh"],
      exitCode: 7,
      timedOut: false,
      outputTail: "cannot build",
      log: `eval-runs/${broken.id}/logs/prepare.log`,
    });
    expect(broken.error).toMatch(
      /^Preparation error: prepare step 1 \(sh setup\.sh in \.\) exited 7, last output: cannot build; /,
    );
    expect(`${result.stdout}\n${result.stderr}`).toContain("preparation error");
    // Never the candidate's 0: no judge ran on it.
    const plan = await runCli(["plan", "--benchmark", directory, "--json"]);
    const work = (JSON.parse(plan.stdout) as { work: { eval: string; action: string; reason: string }[] }).work;
    expect(work.find((slot) => slot.eval === "broken")).toMatchObject({
      action: "failed",
      reason: expect.stringMatching(/^Preparation error: prepare step 1 .*; retry it explicitly with openeval retry$/),
    });
    expect(work.find((slot) => slot.eval === "prepared")?.action).toBe("reuse");
  });

  it("executes the eval run again with `openeval retry` once the eval is fixed", async () => {
    const broken = evalRuns().find((evalRun) => evalRun.slot.evalId === "broken")!;
    await writeFile(join(directory, "evals", "broken", "workspace", "setup.sh"), WORKING_SETUP);
    const retried = await runCli(["retry", broken.id, "--benchmark", directory, "--run", runDirectory()], {
      timeoutMs: 240_000,
    });
    expect(retried.exitCode, `${retried.stdout}\n${retried.stderr}`).toBe(0);
    const again = evalRuns()
      .filter((evalRun) => evalRun.slot.evalId === "broken")
      .at(-1)!;
    expect(again.id).not.toBe(broken.id);
    expect(again.state).toBe("completed");
    expect(again.preparationError).toBeUndefined();
    await using recording = await readRecording(runDirectory(), again.id);
    expect(recording.workspace.files("initial").map((file) => file.path)).toContain("build/generated.txt");
    expect(existsSync(join(runDirectory(), "eval-runs", again.id, "logs", "prepare.log"))).toBe(true);
  });
});
