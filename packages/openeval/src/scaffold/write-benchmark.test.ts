import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { addEval, guideFiles, ScaffoldError, writeBenchmark } from "./index.ts";

const STARTER_FILES = [
  ".gitignore",
  "README.md",
  "benchmark.ts",
  "evals/fix-spelling/controls/negative.json",
  "evals/fix-spelling/controls/positive.json",
  "evals/fix-spelling/judge.ts",
  "evals/fix-spelling/prompt.md",
  "evals/fix-spelling/workspace/greeting.js",
  "evals/summarize-meeting/controls/negative.json",
  "evals/summarize-meeting/controls/positive.json",
  "evals/summarize-meeting/judge.md",
  "evals/summarize-meeting/prompt.md",
  "evals/summarize-meeting/workspace/notes.txt",
];

async function refusal(promise: Promise<unknown>): Promise<ScaffoldError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ScaffoldError);
  return error as ScaffoldError;
}

async function listTree(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();
}

describe("writeBenchmark", () => {
  it("writes a benchmark that loads: a code-judged and a rubric eval, each with a positive and a negative control", async () => {
    const directory = join(await makeTempDir(), "new", "bench");
    const result = await writeBenchmark(directory);
    expect(result.directory).toBe(directory);
    expect(result.written).toEqual(STARTER_FILES);
    expect(await listTree(directory)).toEqual(STARTER_FILES);
    expect(await readFile(join(directory, ".gitignore"), "utf8")).toBe("results/\n");

    const benchmark = await loadBenchmark(directory);
    expect(benchmark.settings.models).toEqual(["control/positive", "control/negative"]);
    expect(benchmark.settings.judge?.model).toBe("control/judge");
    const [code, rubric] = benchmark.evals;
    expect(code!.id).toBe("fix-spelling");
    expect(code!.code && !code!.rubric).toBe(true);
    expect(code!.criteria.map((criterion) => `${criterion.id} (${criterion.source})`)).toEqual([
      "fixed_spelling (judge.ts)",
      "focused_change (judge.ts)",
    ]);
    expect(rubric!.id).toBe("summarize-meeting");
    expect(rubric!.rubric && !rubric!.code).toBe(true);
    expect(rubric!.criteria.map((criterion) => criterion.id)).toEqual(["decision", "owners"]);
    for (const evaluation of benchmark.evals)
      expect(Object.keys(evaluation.controls).sort()).toEqual(["negative", "positive"]);

    // control/judge submits each control's verdict: one for every criterion of the rubric, passing only the positive.
    for (const [control, value] of [
      ["positive", true],
      ["negative", false],
    ] as const) {
      const file = JSON.parse(
        await readFile(join(directory, "evals", "summarize-meeting", "controls", `${control}.json`), "utf8"),
      ) as { verdict: Record<string, { value: boolean }> };
      expect(Object.keys(file.verdict)).toEqual(["decision", "owners"]);
      expect(Object.values(file.verdict).map((entry) => entry.value)).toEqual([value, value]);
    }
  });

  it("links the eval-writing guide and llms.txt from its README, and both exist where init says", async () => {
    const result = await writeBenchmark(await makeTempDir());
    const readme = await readFile(join(result.directory, "README.md"), "utf8");
    expect(readme).toContain("docs/writing-evals.md");
    expect(readme).toContain("llms.txt");
    expect(readme).toContain("openeval init --eval <id>");
    expect(existsSync(result.guides.guide)).toBe(true);
    expect(existsSync(result.guides.llms)).toBe(true);
  });

  it("writes into a folder that holds other files, leaving them as they are", async () => {
    const directory = await makeTempDir();
    await writeFile(join(directory, "package.json"), "{}\n");
    await writeBenchmark(directory);
    expect(await readFile(join(directory, "package.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(directory, "benchmark.ts"))).toBe(true);
  });

  for (const existing of ["benchmark.ts", "README.md", ".gitignore", "evals"]) {
    it(`refuses when ${existing} exists, names it, and writes nothing`, async () => {
      const directory = await makeTempDir();
      if (existing === "evals") await mkdir(join(directory, "evals"));
      else await writeFile(join(directory, existing), "mine\n");
      const error = await refusal(writeBenchmark(directory));
      expect(error.code).toBe("OE_INIT_WOULD_OVERWRITE");
      expect(error.message).toBe(
        `${directory} already holds ${existing}; init overwrites nothing. ` +
          (existing === "benchmark.ts"
            ? "To add an eval to this benchmark: `openeval init <dir> --eval <id>`; for a new benchmark, name a new folder: `openeval init <dir>`"
            : "Name a new folder for the benchmark: `openeval init <dir>`"),
      );
      expect(await listTree(directory)).toEqual(existing === "evals" ? [] : [existing]);
      if (existing !== "evals") expect(await readFile(join(directory, existing), "utf8")).toBe("mine\n");
    });
  }

  it("names everything that exists, a dangling link too", async () => {
    const directory = await makeTempDir();
    await writeFile(join(directory, "README.md"), "mine\n");
    await symlink(join(directory, "missing"), join(directory, ".gitignore"));
    const error = await refusal(writeBenchmark(directory));
    expect(error.message).toContain(`${directory} already holds README.md, .gitignore;`);
  });

  it("refuses a file where the folder should be", async () => {
    const file = join(await makeTempDir(), "bench");
    await writeFile(file, "x\n");
    const error = await refusal(writeBenchmark(file));
    expect(error.code).toBe("OE_INIT_WOULD_OVERWRITE");
    expect(error.message).toBe(`${file} is a file, not a folder; name a folder for the benchmark`);
  });
});

describe("addEval", () => {
  it("adds a code-judged eval with controls, which the benchmark then loads", async () => {
    const { directory } = await writeBenchmark(await makeTempDir());
    const result = await addEval(directory, "parse-dates", "code");
    expect(result.written).toEqual([
      "evals/parse-dates/controls/negative.json",
      "evals/parse-dates/controls/positive.json",
      "evals/parse-dates/judge.ts",
      "evals/parse-dates/prompt.md",
      "evals/parse-dates/workspace/greeting.js",
    ]);
    const added = (await loadBenchmark(directory)).evals.find((evaluation) => evaluation.id === "parse-dates")!;
    expect(added.code && !added.rubric).toBe(true);
    expect(Object.keys(added.controls).sort()).toEqual(["negative", "positive"]);
  });

  it("adds a rubric eval with --rubric's template: judge.md and controls with verdicts", async () => {
    const { directory } = await writeBenchmark(await makeTempDir());
    const result = await addEval(directory, "release_notes.v2", "rubric");
    expect(result.written).toContain("evals/release_notes.v2/judge.md");
    expect(result.written).not.toContain("evals/release_notes.v2/judge.ts");
    const added = (await loadBenchmark(directory)).evals.find((evaluation) => evaluation.id === "release_notes.v2")!;
    expect(added.rubric && !added.code).toBe(true);
  });

  it("refuses an id that exists, naming its folder, and leaves it as it was", async () => {
    const { directory } = await writeBenchmark(await makeTempDir());
    const folder = join(directory, "evals", "fix-spelling");
    const before = await listTree(folder);
    const error = await refusal(addEval(directory, "fix-spelling", "rubric"));
    expect(error.code).toBe("OE_INIT_WOULD_OVERWRITE");
    expect(error.message).toBe(
      `eval "fix-spelling" exists already (${folder}); init overwrites nothing: pick another id`,
    );
    expect(await listTree(folder)).toEqual(before);
  });

  for (const id of ["../escape", "-dash", ".hidden", "with space", "a/b", ""]) {
    it(`refuses the invalid id ${JSON.stringify(id)}`, async () => {
      const { directory } = await writeBenchmark(await makeTempDir());
      const error = await refusal(addEval(directory, id, "code"));
      expect(error.code).toBe("OE_INIT_EVAL_ID_INVALID");
      expect(error.message).toBe(
        `eval id "${id}" must start with a letter or digit and use only letters, digits, ".", "_" and "-" (it names the folder evals/<id>/)`,
      );
    });
  }

  it("refuses a folder without benchmark.ts, saying how to write one", async () => {
    const directory = await makeTempDir();
    const error = await refusal(addEval(directory, "answer", "code"));
    expect(error.code).toBe("OE_INIT_NO_BENCHMARK");
    expect(error.message).toBe(
      `${directory} has no benchmark.ts: --eval adds an eval to a benchmark. Write one first with \`openeval init ${directory}\`, or name the benchmark's folder`,
    );
    expect(await listTree(directory)).toEqual([]);
  });
});

describe("guideFiles", () => {
  it("finds the guides inside the package when packed, else at the repository's root", async () => {
    const packed = await makeTempDir();
    await writeFile(join(packed, "llms.txt"), "x\n");
    expect(guideFiles(packed)).toEqual({
      guide: join(packed, "docs", "writing-evals.md"),
      llms: join(packed, "llms.txt"),
    });
    const clone = join(await makeTempDir(), "packages", "openeval");
    expect(guideFiles(clone)).toEqual({
      guide: join(clone, "..", "..", "docs", "writing-evals.md"),
      llms: join(clone, "..", "..", "llms.txt"),
    });
  });
});
