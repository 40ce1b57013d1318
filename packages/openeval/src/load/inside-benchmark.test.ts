import { readlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  fakeHome,
  linkedOutside,
  makeTempDir,
  minimalBenchmark,
  writeTree,
} from "../../../../test/helpers/fixtures.ts";
import { BenchmarkInvalidError, type LoadProblem } from "./errors.ts";
import { loadBenchmark } from "./load-benchmark.ts";

const PLANTED_KEY = "sk-planted-home-key-0123456789";

async function problemsOf(files: Parameters<typeof writeTree>[0]): Promise<LoadProblem[]> {
  const error = await loadBenchmark(await writeTree(files)).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BenchmarkInvalidError);
  expect((error as Error).message).not.toContain(PLANTED_KEY);
  return (error as BenchmarkInvalidError).problems;
}

const outside = (file: string, message: string) => ({
  file,
  code: "OE_LINK_OUTSIDE_BENCHMARK",
  message: expect.stringContaining(message),
});

describe("eval entries that resolve outside the benchmark folder", () => {
  it("a workspace linked to a home folder (auth.json inside) is refused by name, with where it points and what to do", async () => {
    const home = await fakeHome(PLANTED_KEY);
    const problems = await problemsOf(minimalBenchmark({ "evals/answer/workspace": { symlink: home } }));
    expect(problems).toEqual([
      outside("evals/answer/workspace", `is a symlink to ${home}, outside the benchmark folder`),
    ]);
    expect(problems[0]!.message).toMatch(
      /hand it to the candidate or a judge\. Copy what the eval needs into the benchmark folder, or point the link inside it$/,
    );
  });

  it("a workspace, prompt.md, judge.ts, eval.ts, REFERENCE_FIX.md, a controls file and a judge-only folder linked outside are each refused", async () => {
    const home = await fakeHome(PLANTED_KEY);
    const problems = await problemsOf(
      minimalBenchmark({
        ...linkedOutside(home),
        "evals/configured/prompt.md": "x\n",
        "evals/configured/judge.md": "## Criterion: ok — OK\nx\n",
        "evals/configured/eval.ts": { symlink: join(home, "helper.ts") },
        "evals/reference/fixtures/home": { symlink: home },
        "evals/reference/controls/positive.json": { symlink: join(home, "data.json") },
      }),
    );
    expect(problems).toEqual([
      outside("evals/answer/workspace", `is a symlink to ${home}, outside`),
      outside("evals/configured/eval.ts", `is a symlink to ${join(home, "helper.ts")}, outside`),
      outside("evals/judge/judge.ts", `is a symlink to ${join(home, "judge.ts")}, outside`),
      outside("evals/prompt/prompt.md", `is a symlink to ${join(home, "notes.txt")}, outside`),
      outside("evals/reference/REFERENCE_FIX.md", `is a symlink to ${join(home, "notes.txt")}, outside`),
      outside("evals/reference/controls/positive.json", "outside the benchmark folder"),
      outside("evals/reference/fixtures/home", "outside the benchmark folder"),
    ]);
  });

  it("an eval folder, or evals/ itself, linked outside is refused; a dangling link is judged by where it points", async () => {
    const home = await fakeHome(PLANTED_KEY);
    const elsewhere = await writeTree({
      "x/prompt.md": "x\n",
      "x/judge.ts": "export default () => ({ scores: { ok: true } });\n",
    });
    expect(await problemsOf(minimalBenchmark({ "evals/x": { symlink: join(elsewhere, "x") } }))).toEqual([
      outside("evals/x", `is a symlink to ${join(elsewhere, "x")}`),
    ]);
    const linkedEvals = {
      "benchmark.ts": `export default { models: ["provider/model"] };\n`,
      evals: { symlink: elsewhere },
    };
    expect(await problemsOf(linkedEvals)).toEqual([
      outside("evals/x", `resolves to ${join(elsewhere, "x")} through a symlink, outside`),
    ]);
    expect(
      await problemsOf(minimalBenchmark({ "evals/answer/REFERENCE_FIX.md": { symlink: join(home, "not-yet") } })),
    ).toEqual([outside("evals/answer/REFERENCE_FIX.md", `is a symlink to ${join(home, "not-yet")}, outside`)]);
  });

  it("links that stay inside the benchmark are read like their files; links inside workspace/ stay links", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "shared/fix.md": "the fix\n",
        "shared/fixtures/case.json": "{}\n",
        "shared/workspace/src/a.js": "export const a = 1;\n",
        "shared/workspace/src/b.js": { symlink: "a.js" },
        "evals/answer/REFERENCE_FIX.md": { symlink: "../../shared/fix.md" },
        "evals/answer/fixtures": { symlink: "../../shared/fixtures" },
        "evals/answer/workspace": { symlink: "../../shared/workspace" },
      }),
    );
    const [evaluation] = (await loadBenchmark(directory)).evals;
    expect(evaluation!.judgeFiles.map((file) => file.path)).toEqual(["REFERENCE_FIX.md", "fixtures/case.json"]);
    expect(evaluation!.workspace.fileCount).toBe(2);
    expect(readlinkSync(join(directory, "evals", "answer", "workspace", "src", "b.js"))).toBe("a.js");
  });

  it("a link inside workspace/ that leaves the workspace but not the benchmark is the workspace's problem, said once", async () => {
    expect(await problemsOf(minimalBenchmark({ "evals/answer/workspace/link": { symlink: "../prompt.md" } }))).toEqual([
      {
        file: "evals/answer/workspace",
        message: expect.stringMatching(/^has symlinks pointing outside the workspace \(link -> \.\.\/prompt\.md\)/),
      },
    ]);
  });
});

describe("files a judge imports or benchmark.ts names, outside the benchmark folder", () => {
  it("a judge.ts importing a local file outside (code or JSON, directly or through a link) is refused, naming each", async () => {
    const home = await fakeHome(PLANTED_KEY);
    const problems = await problemsOf(
      minimalBenchmark({
        "evals/answer/judge.ts": `import { key } from ${JSON.stringify(join(home, "helper.ts"))};\nimport data from "./lib/data.json";\nexport default () => ({ scores: { ok: key === data.key } });\n`,
        "evals/answer/lib/data.json": { symlink: join(home, "data.json") },
      }),
    );
    // The linked JSON is an eval entry; judge.ts's own import of a file outside is found when bundling.
    expect(problems).toEqual([outside("evals/answer/lib/data.json", "outside the benchmark folder")]);
    const judge = `import { key } from ${JSON.stringify(join(home, "helper.ts"))};\nimport data from "../../../${home.split("/").pop()}/data.json";\nexport default () => ({ scores: { ok: key === data.key } });\n`;
    const direct = await problemsOf(minimalBenchmark({ "evals/answer/judge.ts": judge }));
    expect(direct).toEqual([
      {
        file: "evals/answer/judge.ts",
        code: "OE_JUDGE_IMPORT_OUTSIDE_BENCHMARK",
        message: expect.stringContaining(
          `imports ../../../${home.split("/").pop()}/data.json (${join(home, "data.json")}), ../../../${home.split("/").pop()}/helper.ts (${join(home, "helper.ts")}), outside the benchmark folder`,
        ),
      },
    ]);
    expect(direct[0]!.message).toMatch(/move them into the benchmark folder \(or install them as a package\)$/);
  });

  it("a judge's package import still resolves from a node_modules that lives elsewhere", async () => {
    const packages = await writeTree({
      "node_modules/pad-left-here/package.json": JSON.stringify({
        name: "pad-left-here",
        version: "1.2.3",
        main: "index.js",
      }),
      "node_modules/pad-left-here/index.js": "module.exports = (text) => ` ${text}`;\n",
    });
    const directory = await writeTree(
      minimalBenchmark({
        node_modules: { symlink: join(packages, "node_modules") },
        "evals/answer/judge.ts": `import pad from "pad-left-here";\nimport { helper } from "../../lib/helper.ts";\nexport default () => ({ scores: { ok: pad(helper) === " a" } });\n`,
        "lib/helper.ts": `export const helper = "a";\n`,
      }),
    );
    const [evaluation] = (await loadBenchmark(directory)).evals;
    expect(evaluation!.code!.dependencies).toEqual([{ name: "pad-left-here", version: "1.2.3" }]);
  });

  it("a variant's file outside the benchmark folder is refused, not read", async () => {
    const home = await fakeHome(PLANTED_KEY);
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], variants: { a: { instructions: { file: ${JSON.stringify(join(home, "notes.txt"))} }, files: { "workspace/x.md": { file: "linked.md" } } } } };\n`,
        "linked.md": { symlink: join(home, "notes.txt") },
      }),
    );
    expect(problems).toEqual([
      {
        file: "benchmark.ts",
        code: "OE_FILE_OUTSIDE_BENCHMARK",
        message: expect.stringContaining(
          `variants.a.files["workspace/x.md"]: "linked.md" resolves to ${join(home, "notes.txt")}, outside the benchmark folder`,
        ),
      },
      {
        file: "benchmark.ts",
        code: "OE_FILE_OUTSIDE_BENCHMARK",
        message: expect.stringContaining(`variants.a.instructions: "${join(home, "notes.txt")}" resolves to`),
      },
    ]);
  });

  it("the formatted error carries each problem's code", async () => {
    const home = await makeTempDir();
    const error = await loadBenchmark(
      await writeTree(minimalBenchmark({ "evals/answer/workspace": { symlink: home } })),
    ).catch((caught: Error) => caught);
    expect((error as Error).message).toContain(
      `  evals/answer/workspace: [OE_LINK_OUTSIDE_BENCHMARK] is a symlink to ${home}, outside the benchmark folder`,
    );
  });
});
