// eval.ts prepare in the container backend: the steps run inside the candidate's container, as its
// user, before the session and before the initial snapshot, so their output is the starting state (not in the
// candidate's diff); a failing step is a preparation error and no container of the run is left behind.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { readRecording } from "../../packages/openeval/src/index.ts";
import { openSandboxEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readEvalRuns } from "../helpers/results.ts";

const reachable = await isEngineReachable();
let directory: string;
let run: CliResult;

const answers = {
  turns: [
    { tools: [{ name: "bash", input: { command: "echo 42 > answer.txt", description: "answer" } }] },
    { text: "Done." },
  ],
};
function evalFiles(id: string, prepare: string) {
  return {
    [`evals/${id}/prompt.md`]: "Write 42 to answer.txt.\n",
    [`evals/${id}/judge.ts`]: `export default ({ workspace }) => ({ scores: { answered: workspace.files().some((file) => file.path === "answer.txt") } });\n`,
    [`evals/${id}/eval.ts`]: `export default { prepare: ${prepare} };\n`,
    [`evals/${id}/workspace/README.md`]: "A workspace.\n",
    [`evals/${id}/controls/positive.json`]: JSON.stringify(answers),
  };
}

const runDirectory = () => onlyRunDirectory(directory);
const evalRuns = () => readEvalRuns(runDirectory());

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage({
    onProgress: (event) => event.kind === "phase" && console.error(`[candidate image] ${event.message}`),
  });
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, candidate: { timeoutMs: 180_000, isolation: "container" } };\n`,
    ...evalFiles(
      "prepared",
      `[{ argv: ["mkdir", "build"] }, { cwd: "build", argv: ["sh", "-c", "id -u > uid.txt; pwd > where.txt"] }]`,
    ),
    ...evalFiles("broken", `[{ argv: ["sh", "-c", "echo cannot build >&2; exit 7"] }]`),
  });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 400_000 });
}, 900_000);

describe.skipIf(!reachable)("eval.ts prepare in a candidate container", () => {
  it("runs the steps in the container as its user, before the initial snapshot; the candidate's diff holds only its own work", async () => {
    const prepared = evalRuns().find((evalRun) => evalRun.slot.evalId === "prepared")!;
    expect(prepared, run.stderr).toMatchObject({ state: "completed", input: { isolation: "container" } });
    await using recording = await readRecording(runDirectory(), prepared.id);
    expect(await recording.workspace.text("build/uid.txt", "initial")).toBe("10003\n");
    expect(await recording.workspace.text("build/where.txt", "initial")).toBe("/home/candidate/workspace/build\n");
    expect((await recording.workspace.patches()).map((patch) => patch.path)).toEqual(["answer.txt"]);
  });

  it("records a failing step as a preparation error, never the candidate's 0", () => {
    const broken = evalRuns().find((evalRun) => evalRun.slot.evalId === "broken")!;
    expect(broken).toMatchObject({
      state: "failed",
      infrastructureError: true,
      evidence: null,
      preparationError: { step: 1, exitCode: 7, timedOut: false, outputTail: "cannot build" },
    });
  });

  it("leaves no container of the run behind", async () => {
    const runId = readdirSync(join(directory, "results"))[0]!;
    expect(await (await openSandboxEngine("container")).list({ "openeval.run": runId })).toEqual([]);
  });
});
