import { existsSync, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { findKnownSecrets } from "../opencode/index.ts";
import { InputSecretError } from "./errors.ts";
import { readFrozenCase, verifyFrozenInputs } from "../records/index.ts";
import {
  checkFrozenBeforeUse,
  compareWithFrozen,
  freezeInputs,
  programsRunBy,
  restoreFrozen,
} from "./freeze-inputs.ts";
import { compareSources, describeInputChanges, hashSources } from "../summary/index.ts";

async function frozenBenchmark() {
  const directory = await writeTree(
    minimalBenchmark({
      "evals/answer/REFERENCE_FIX.md": "reference\n",
      "evals/answer/workspace/src/a.js": "export const a = 1;\n",
      "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
    }),
  );
  const benchmark = await loadBenchmark(directory);
  const run = await makeTempDir();
  return { directory, run, ...(await freezeInputs(benchmark, run, [])) };
}

describe("freezeInputs", () => {
  it("copies workspace and judge-only files into the run store and points the definition at the copy", async () => {
    const { directory, run, benchmark, frozen } = await frozenBenchmark();
    const evaluation = benchmark.evals[0]!;
    expect(evaluation.directory).toBe(join(run, "inputs", "evals", "answer"));
    expect(evaluation.workspace.directory).toBe(join(run, "inputs", "evals", "answer", "workspace"));
    expect(readFileSync(join(evaluation.directory, "REFERENCE_FIX.md"), "utf8")).toBe("reference\n");
    expect(readFileSync(join(evaluation.directory, "workspace", "src", "a.js"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(join(evaluation.directory, "judge.bundle.js"), "utf8")).toContain("APPLE");
    // Controls are the harness's, never a judge's or a candidate's input.
    expect(existsSync(join(evaluation.directory, "controls"))).toBe(false);
    // Edits to the live folder after freezing do not reach the copy.
    await writeFile(join(directory, "evals", "answer", "REFERENCE_FIX.md"), "rewritten by a candidate\n");
    expect(await restoreFrozen(frozen.get("answer")!)).toEqual({ restored: [], added: [], damaged: [] });
    expect(readFileSync(join(evaluation.directory, "REFERENCE_FIX.md"), "utf8")).toBe("reference\n");
  });

  it("keeps an eval's cases as loaded with its frozen folder, so a recording read later gets its case", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "evals/answer/prompt.md": "Say {{input.word}}.\n",
        "evals/answer/cases.jsonl":
          '{"id": "apple", "input": {"word": "APPLE"}, "expected": "APPLE", "tags": ["fruit"]}\n',
        "evals/answer/regression.cases.jsonl": '{"id": "pear", "input": {"word": "PEAR"}}\n',
      }),
    );
    const run = await makeTempDir();
    await freezeInputs(await loadBenchmark(directory), run, []);
    expect(await readFrozenCase(run, "answer", "apple")).toEqual({
      id: "apple",
      input: { word: "APPLE" },
      expected: "APPLE",
      tags: ["fruit"],
    });
    expect(await readFrozenCase(run, "answer", "pear")).toEqual({
      id: "pear",
      input: { word: "PEAR" },
      expected: null,
      tags: ["regression"],
    });
    expect(await readFrozenCase(run, "answer", "plum")).toBeNull();
    expect(await readFrozenCase(run, "nope", "apple")).toBeNull();
  });

  it("freezes a repository workspace's overlay and revisions folders as candidate inputs, not judge-only files", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "evals/answer/eval.ts":
          'export default { workspace: { revisions: [{ ref: "main", directory: "v1", message: "One" }], ref: "main", overlay: "extra" } };\n',
        "evals/answer/v1/app.js": "one\n",
        "evals/answer/extra/NOTES.md": "notes\n",
        "evals/answer/REFERENCE_FIX.md": "reference\n",
      }),
    );
    const loaded = await loadBenchmark(directory);
    expect(loaded.evals[0]!.judgeFiles.map((file) => file.path)).toEqual(["REFERENCE_FIX.md"]);
    const { benchmark } = await freezeInputs(loaded, await makeTempDir(), []);
    const folder = benchmark.evals[0]!.directory;
    expect(readFileSync(join(folder, "v1", "app.js"), "utf8")).toBe("one\n");
    expect(readFileSync(join(folder, "extra", "NOTES.md"), "utf8")).toBe("notes\n");
  });

  it("puts back a frozen copy that was edited, and names what was altered", async () => {
    const { benchmark, frozen } = await frozenBenchmark();
    const folder = benchmark.evals[0]!.directory;
    await writeFile(join(folder, "REFERENCE_FIX.md"), "forged\n");
    await writeFile(join(folder, "workspace", "planted.js"), "evil\n");
    expect(await restoreFrozen(frozen.get("answer")!)).toEqual({
      restored: ["inputs/evals/answer/REFERENCE_FIX.md"],
      added: ["workspace/planted.js"],
      damaged: [],
    });
    expect(readFileSync(join(folder, "REFERENCE_FIX.md"), "utf8")).toBe("reference\n");
    expect(existsSync(join(folder, "workspace", "planted.js"))).toBe(false);
  });

  it("names a damaged object as an integrity error that refuses the folder, instead of throwing", async () => {
    const { run, benchmark, frozen, programs } = await frozenBenchmark();
    const entry = frozen.get("answer")!.files.find((file) => file.path === "REFERENCE_FIX.md")!;
    if (entry.kind !== "file") throw new Error("expected a file");
    await writeFile(join(run, "inputs", "objects", entry.sha256), "forged\n");
    await writeFile(join(benchmark.evals[0]!.directory, "REFERENCE_FIX.md"), "forged\n");
    const object = `inputs/objects/${entry.sha256} (the frozen REFERENCE_FIX.md)`;
    const { check, problems, usable } = await checkFrozenBeforeUse(frozen.get("answer")!, run, programs);
    expect([check.damaged, usable]).toEqual([[object], false]);
    expect(problems).toEqual([
      {
        kind: "inputs",
        id: "answer",
        message: `eval answer's frozen inputs: ${object} altered or removed; nothing is graded with them — start a new run with --new`,
      },
    ]);
    expect((await verifyFrozenInputs(run)).map((problem) => problem.message)).toEqual([
      "eval answer's frozen inputs: inputs/evals/answer/REFERENCE_FIX.md changed after it was frozen",
      `eval answer's frozen inputs: ${object} altered or removed; nothing is graded with them — start a new run with --new`,
    ]);
  });

  it("refuses the frozen harness programs once one of their files was rewritten, and verify names it", async () => {
    const { run, frozen, codeWorker, programs } = await frozenBenchmark();
    expect(await verifyFrozenInputs(run)).toEqual([]);
    await writeFile(codeWorker!, "process.exit(0)\n");
    const worker = `inputs/harness/${basename(codeWorker!)}`;
    const { problems, usable } = await checkFrozenBeforeUse(frozen.get("answer")!, run, programs);
    expect(usable).toBe(false);
    const message = `the run's frozen harness programs: ${worker} altered or removed; nothing is graded with them — start a new run with --new`;
    expect(problems).toEqual([{ kind: "inputs", id: "harness", message }]);
    expect(await verifyFrozenInputs(run)).toEqual([{ kind: "inputs", id: "harness", message }]);
  });

  it("checks before a job only the programs it runs: none for a candidate, the worker for a code judging", async () => {
    const { run, codeWorker, programs } = await frozenBenchmark();
    const worker = `harness/${basename(codeWorker!)}`;
    expect([...programsRunBy(programs, run, [codeWorker, null]).keys()]).toEqual([worker, `${worker}.jsc`]);
    expect(programsRunBy(programs, run, [null, null]).size).toBe(0);
  });

  it("names the eval definition and judge-only files that differ from what a run froze, not its workspace", async () => {
    const { directory, run } = await frozenBenchmark();
    await writeFile(
      join(directory, "evals", "answer", "judge.ts"),
      "export default () => ({ scores: { correct: true } });\n",
    );
    await writeFile(join(directory, "evals", "answer", "NOTES.md"), "new judge-only file\n");
    await writeFile(join(directory, "evals", "answer", "workspace", "src", "a.js"), "changed\n");
    expect(await compareWithFrozen(await loadBenchmark(directory), run)).toEqual([
      { scope: "benchmark", path: "evals/answer/judge.ts", change: "modified" },
      { scope: "benchmark", path: "evals/answer/NOTES.md", change: "added" },
    ]);
  });

  it("freezes the harness programs its judges run: the tool server when an eval has a judge.md, the worker when one has a judge.ts", async () => {
    const rubricOnly = await loadBenchmark(
      await writeTree({
        "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, judge: { model: "provider/judge" } };\n`,
        "evals/answer/prompt.md": "Reply with exactly APPLE.\n",
        "evals/answer/judge.md":
          "## Criterion: brief — Answers briefly\nPass when the reply is the requested word alone.\n",
      }),
    );
    const run = await makeTempDir();
    const frozen = await freezeInputs(rubricOnly, run, []);
    expect(frozen.codeWorker).toBeNull();
    expect(frozen.judgeTools).toMatch(new RegExp(`^${join(run, "inputs", "harness")}/judge-tools-[0-9a-f]{16}\\.js$`));
    expect(readFileSync(frozen.judgeTools!, "utf8")).toContain("judge_submit_judgment");
    const { codeWorker, judgeTools } = await frozenBenchmark();
    expect(codeWorker).toMatch(/\/inputs\/harness\/code-worker-[0-9a-f]{16}\.js$/);
    expect(judgeTools).toBeNull();
  });
});

describe("freezing inputs that hold a known secret", () => {
  it("refuses the run, naming each file and whose secret it holds, and writes none of them into the run store", async () => {
    const ENV_KEY = "sk-planted-env-key-0123456789";
    const AUTH_KEY = "sk-planted-auth-key-0123456789";
    const dataHome = await writeTree({
      "opencode/auth.json": JSON.stringify({ anthropic: { type: "api", key: AUTH_KEY } }),
    });
    const secrets = await findKnownSecrets({ PLANTED_SERVICE_TOKEN: ENV_KEY, XDG_DATA_HOME: dataHome });
    const directory = await writeTree(
      minimalBenchmark({
        "evals/answer/workspace/.env": `TOKEN=${ENV_KEY}\n`,
        "evals/answer/workspace/src/a.js": "export const a = 1;\n",
        "evals/answer/REFERENCE_FIX.md": `call it with ${AUTH_KEY}\n`,
        "evals/other/prompt.md": "x\n",
        "evals/other/judge.ts": `export default () => ({ scores: { ok: "${ENV_KEY}".length > 0 } });\n`,
      }),
    );
    const run = await makeTempDir();
    const error = await freezeInputs(await loadBenchmark(directory), run, secrets).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputSecretError);
    expect((error as InputSecretError).code).toBe("OE_INPUT_HOLDS_SECRET");
    expect((error as Error).message).toBe(
      "The benchmark's inputs hold secrets this runner knows, so no candidate was started and these files were not frozen into results/:\n" +
        "  evals/answer/REFERENCE_FIX.md: the value of auth.json anthropic.key\n" +
        "  evals/answer/workspace/.env: the value of env PLANTED_SERVICE_TOKEN\n" +
        "  evals/other/judge.ts: the value of env PLANTED_SERVICE_TOKEN\n" +
        "  evals/other/judge.bundle.js: the value of env PLANTED_SERVICE_TOKEN\n" +
        "A benchmark's files are handed to candidates and judges and kept with the run: remove the secret from each file, then run again",
    );
    const written = await readdir(run, { recursive: true, withFileTypes: true });
    const contents = written
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), "latin1"));
    expect(contents.length).toBeGreaterThan(0);
    for (const content of contents) expect(content.includes(ENV_KEY) || content.includes(AUTH_KEY)).toBe(false);
  });
});

describe("input changes", () => {
  it("names benchmark files modified, added and removed since the hashes were taken", async () => {
    const directory = await writeTree(
      minimalBenchmark({ "evals/answer/REFERENCE_FIX.md": "reference\n", "results/r/store.db": "x" }),
    );
    const before = await hashSources(directory);
    await writeFile(join(directory, "evals", "answer", "REFERENCE_FIX.md"), "changed\n");
    await writeFile(join(directory, "evals", "answer", "extra.md"), "new\n");
    await writeFile(join(directory, "results", "r", "store.db"), "results are not inputs");
    const changes = compareSources(before, await hashSources(directory));
    expect(changes).toEqual([
      { scope: "benchmark", path: "evals/answer/REFERENCE_FIX.md", change: "modified" },
      { scope: "benchmark", path: "evals/answer/extra.md", change: "added" },
    ]);
    expect(describeInputChanges(changes)).toBe(
      "evals/answer/REFERENCE_FIX.md (modified), evals/answer/extra.md (added)",
    );
    expect([...before.keys()].some((key) => key.startsWith("harness:src/judge/code-worker.ts"))).toBe(true);
  });
});
