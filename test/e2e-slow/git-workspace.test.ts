// eval.ts `workspace` from a git repository with real OpenCode and a scripted control: the candidate
// starts from the pinned commit of a local repository with the eval's overlay on top, sees only that commit in
// git, and no host path in its git metadata; pinning another commit plans the candidate again.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRecording } from "../../packages/openeval/src/index.ts";
import { git } from "../../packages/openeval/src/util/git.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readEvalRuns } from "../helpers/results.ts";

const inspect =
  "cd checkout && git log --all --format=%H > ../gitlog.txt && git remote -v > ../remotes.txt && cat app.js > ../seen.txt";
const control = {
  turns: [
    { tools: [{ name: "bash", input: { command: inspect, description: "look at the checkout" } }] },
    { text: "Done." },
  ],
};
const evalTs = (source: string, commit: string) =>
  `export default { workspace: { repository: ${JSON.stringify(source)}, commit: "${commit}", ref: "main", overlay: "extra" } };\n`;

let directory: string;
let source: string;
const commits: string[] = [];

beforeAll(async () => {
  source = await writeTree({ "app.js": "export const version = 1;\n" }, join(await makeTempDir(), "source-repo"));
  await git(source, ["init", "--quiet", "--initial-branch=trunk"]);
  const changes: Record<string, string>[] = [{}, { "app.js": "export const version = 2;\n", "later.txt": "later\n" }];
  for (const [index, files] of changes.entries()) {
    await writeTree(files, source);
    await git(source, ["add", "--all"]);
    await git(source, ["commit", "--quiet", "-m", `commit ${index + 1}`]);
    commits.push(await git(source, ["rev-parse", "HEAD"]));
  }
  directory = await writeTree({
    "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
    "evals/repo/prompt.md": "Look at the checkout.\n",
    "evals/repo/judge.ts": `export default ({ workspace }) => ({ scores: { looked: workspace.files().some((file) => file.path === "seen.txt") } });\n`,
    "evals/repo/eval.ts": evalTs(source, commits[0]!),
    "evals/repo/extra/NOTES.md": "Read app.js.\n",
    "evals/repo/controls/positive.json": JSON.stringify(control),
  });
});

describe("a workspace from a git repository", { timeout: 300_000 }, () => {
  it("starts the candidate at the pinned commit alone, with no host path in its git metadata", async () => {
    const result = await runCli(["run", "--benchmark", directory], { timeoutMs: 240_000 });
    const [evalRun] = readEvalRuns(onlyRunDirectory(directory));
    expect(evalRun?.state, `${evalRun?.error}\n${result.stderr}`).toBe("completed");
    await using recording = await readRecording(onlyRunDirectory(directory), evalRun!.id);
    const initial = recording.workspace.files("initial").map((file) => file.path);
    expect(initial).toContain("checkout/app.js");
    expect(initial).not.toContain("checkout/later.txt");
    // The overlay, from the run's frozen copy of the eval, lies over the checkout.
    expect(await recording.workspace.text("checkout/NOTES.md", "initial")).toBe("Read app.js.\n");
    expect(await recording.workspace.text("checkout/app.js", "initial")).toBe("export const version = 1;\n");
    expect(await recording.workspace.text("upstream.git/config", "initial")).not.toContain(source);
    expect(await recording.workspace.text("gitlog.txt")).toBe(`${commits[0]}\n`);
    expect(await recording.workspace.text("remotes.txt")).toBe(
      "upstream\t../upstream.git (fetch)\nupstream\t../upstream.git (push)\n",
    );
    expect(await recording.workspace.text("seen.txt")).toBe("export const version = 1;\n");
  });

  it("plans the candidate again when the eval pins another commit", async () => {
    const unchanged = await runCli(["plan", "--benchmark", directory, "--json"]);
    expect((JSON.parse(unchanged.stdout) as { work: { action: string }[] }).work.map((slot) => slot.action)).toEqual([
      "reuse",
    ]);
    await writeFile(join(directory, "evals", "repo", "eval.ts"), evalTs(source, commits[1]!));
    const plan = await runCli(["plan", "--benchmark", directory, "--json"]);
    expect((JSON.parse(plan.stdout) as { work: { action: string; reason: string }[] }).work).toMatchObject([
      { action: "candidate", reason: "Candidate inputs changed" },
    ]);
  });
});
