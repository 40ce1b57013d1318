// Copy-out of a candidate container keeps what the agent left, however odd: a hard-linked pair, names with
// backslashes and `..` inside them, and a 2 GiB sparse file, which the final snapshot records by size and sha256.
// The archive streams to disk, so the runner's memory stays far below the file's size, and the run keeps its own
// state (the copy used to count against the session's time limit).
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { readRecording } from "../../packages/openeval/src/index.ts";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { BIN } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readEvalRuns } from "../helpers/results.ts";

const reachable = await isEngineReachable();
const GiB = 1024 ** 3;
const MAKE_FILES = [
  "echo linked > a.txt && ln a.txt b.txt",
  "echo one > 'x\\..\\..\\y' && echo two > 'back\\slash..\\..\\x'",
  "truncate -s 2G sparse.bin",
].join(" && ");
let directory: string;
let run: { exitCode: number; stderr: string; maxRSS: number };

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage({
    onProgress: (event) => event.kind === "phase" && console.error(`[candidate image] ${event.message}`),
  });
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/maker"], repetitions: 1, candidate: { timeoutMs: 180_000, isolation: "container" } };\n`,
    "evals/odd-files/prompt.md": "Leave some odd files.\n",
    "evals/odd-files/judge.ts": `export default ({ workspace }) => ({ scores: { answered: workspace.files().length > 0 } });\n`,
    "evals/odd-files/controls/maker.json": JSON.stringify({
      turns: [
        { tools: [{ name: "bash", input: { command: MAKE_FILES, description: "make files" } }] },
        { text: "Done." },
      ],
    }),
  });
  // Spawned here rather than through runCli: its resource usage (the largest RSS of the runner's process tree) is wanted.
  const child = Bun.spawn(["node", BIN, "run", "--benchmark", directory], {
    stdout: "ignore",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  run = { exitCode, stderr, maxRSS: child.resourceUsage()?.maxRSS ?? Number.NaN };
}, 900_000);

describe.skipIf(!reachable)("copy-out of a candidate container", () => {
  it("keeps hard links, backslash names and a 2 GiB sparse file (by size and sha256); the run completes", async () => {
    expect(run.exitCode, run.stderr).toBe(0);
    const [evalRun] = readEvalRuns(onlyRunDirectory(directory));
    expect(evalRun).toMatchObject({
      state: "completed",
      infrastructureError: false,
      input: { isolation: "container" },
    });
    await using recording = await readRecording(onlyRunDirectory(directory), evalRun!.id);
    const files = recording.workspace.files();
    expect(files.map((file) => file.path).sort()).toEqual([
      "a.txt",
      "b.txt",
      "back\\slash..\\..\\x",
      "sparse.bin",
      "x\\..\\..\\y",
    ]);
    expect(await recording.workspace.text("b.txt")).toBe("linked\n");
    expect(await recording.workspace.text("x\\..\\..\\y")).toBe("one\n");
    expect(await recording.workspace.text("back\\slash..\\..\\x")).toBe("two\n");
    const zeros = createHash("sha256");
    const block = Buffer.alloc(1024 ** 2);
    for (let index = 0; index < 2048; index++) zeros.update(block);
    expect(files.find((file) => file.path === "sparse.bin")).toMatchObject({
      bytes: 2 * GiB,
      sha256: zeros.digest("hex"),
      omitted: { limit: "file" },
    });
  });

  it("streams the archive: the runner's largest RSS stays far below the 2 GiB it copied", () => {
    // The whole archive was held before (the red team saw 3.98 GiB); a runner needs a few hundred MiB.
    expect(run.maxRSS).toBeGreaterThan(0);
    expect(run.maxRSS / 1024 ** 2).toBeLessThan(1024);
  });
});
