// Journey: an author validates a benchmark with the real `openeval` command.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, minimalBenchmark, writeTree } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("openeval validate", () => {
  it("lists the example benchmark's evals, criteria and judge kinds, and exits 0", async () => {
    const result = await runCli(["validate"], { cwd: ROOT });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("exact-answer: judge.ts");
    expect(result.stdout).toContain("  variants: current, concise\n");
    expect(result.stdout).toContain(
      "incident-summary: judge.md + judge.ts; criteria: supported_summary (judge.md), json_shape (judge.ts)",
    );
    expect(result.stdout).toContain(
      "tidy-build: judge.md; criteria: kept_sources (judge.md), removed_dist (judge.md); controls: negative, positive; earlyStop: checks ≥ 1000 ms apart, at most 6, judge spend ≤ $1",
    );
  });

  it("exits 2 naming every problem of a broken benchmark, and runs no judge code", async () => {
    const marker = join(await makeTempDir(), "ran.txt");
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["p/m"], colour: "red" };\n`,
        "evals/answer/judge.ts": `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport default () => ({ scores: { ok: true } });\n`,
        "evals/no-prompt/judge.ts": "export default () => ({});\n",
        "evals/dup/prompt.md": "x\n",
        "evals/dup/judge.md": "## Criterion: a — A\n\n## Criterion: a — B\n",
        "evals/no-default/prompt.md": "x\n",
        "evals/no-default/judge.ts": "export const x = 1;\n",
        "evals/syntax/prompt.md": "x\n",
        "evals/syntax/judge.ts": "export default ( => 1;\n",
      }),
    );
    const result = await runCli(["validate", "--benchmark", directory]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    for (const expected of [
      'benchmark.ts: unknown key "colour"',
      "evals/no-prompt: an eval needs prompt.md",
      'evals/dup/judge.md: line 3: duplicate criterion id "a"',
      "evals/no-default/judge.ts: has no default export",
      "evals/syntax/judge.ts: does not compile",
    ]) {
      expect(result.stderr).toContain(expected);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("shows criterion categories and a benchmark composed from them; a category no criterion has is refused", async () => {
    const files = (categories: string) =>
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, judge: { model: "provider/judge" }, categories: [${categories}] };\n`,
        "evals/answer/judge.ts": `export const criteria = { correct: { name: "Correct", categories: ["Accuracy"] } };\nexport default ({ response }) => ({ scores: { correct: response.text === "APPLE" } });\n`,
        "evals/style/prompt.md": "Write politely.\n",
        "evals/style/judge.md":
          "## Criterion: polite — Polite\nCategories: tone, Accuracy\nPass when polite.\n\n## Criterion: brief — Brief\nShort.\n",
      });
    const composed = await runCli(["validate", "--benchmark", await writeTree(files(`"accuracy"`))]);
    expect(composed.exitCode, composed.stderr).toBe(0);
    expect(composed.stdout).toContain("composed from the criteria in categories: accuracy");
    expect(composed.stdout).toContain("answer: judge.ts; criteria: correct (judge.ts; accuracy)");
    expect(composed.stdout).toContain("style: judge.md; criteria: polite (judge.md; tone; accuracy)");
    const typo = await runCli(["validate", "--benchmark", await writeTree(files(`"acuracy"`))]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain(
      'benchmark.ts: categories: "acuracy" matches no criterion; the categories criteria have are: accuracy, tone',
    );
  });

  it("refuses a judge.ts whose package import does not resolve, before any candidate runs", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
        "evals/answer/judge.ts": `import chalk from "chalk-not-installed-here";\nexport default () => ({ scores: { ok: chalk !== undefined } });\n`,
        "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      }),
    );
    const validate = await runCli(["validate", "--benchmark", directory]);
    expect(validate.exitCode).toBe(2);
    expect(validate.stderr).toContain(
      'evals/answer/judge.ts: imports "chalk-not-installed-here" (imported by judge.ts), which cannot be resolved from',
    );
    const run = await runCli(["run", "--benchmark", directory]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("chalk-not-installed-here");
    expect(existsSync(join(directory, "results"))).toBe(false);
  });

  it("refuses a prompt over the size limit and a FIFO in workspace/", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "evals/answer/prompt.md": `${"Reply with exactly APPLE. ".repeat(80_000)}\n`,
        "evals/piped/prompt.md": "Read the pipe.\n",
        "evals/piped/judge.ts": "export default () => ({ scores: { ok: true } });\n",
        "evals/piped/workspace/readme.txt": "hello\n",
      }),
    );
    expect(Bun.spawnSync(["mkfifo", join(directory, "evals", "piped", "workspace", "pipe")]).exitCode).toBe(0);
    const result = await runCli(["validate", "--benchmark", directory]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/evals\/answer\/prompt\.md: is \d+ bytes, over the 1048576-byte limit for a prompt/);
    expect(result.stderr).toContain("evals/piped/workspace: has FIFOs, sockets or device files (pipe)");
  });

  it("explains unknown commands and flags", async () => {
    const unknown = await runCli(["valdiate"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(
      'unknown command "valdiate"; the commands are: run, plan, retry, rejudge, add-models, remove-models, merge-runs, snapshot, baseline, review, report, calibrate, audit, engines, image, view, export, ci, init, validate, verify',
    );
    const help = await runCli(["validate", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--benchmark <dir>");
  });

  it("a benchmark.ts whose import never settles is a load error within the limit, exit 2 (validate, plan and run)", async () => {
    const directory = await writeTree(
      minimalBenchmark({ "benchmark.ts": `await new Promise(() => {});\nexport default { models: ["p/m"] };\n` }),
    );
    for (const command of ["validate", "plan", "run"]) {
      const started = Date.now();
      const result = await runCli([command, "--benchmark", directory], {
        env: { OPENEVAL_CONFIG_TIMEOUT_MS: "2000" },
        timeoutMs: 30_000,
      });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain("benchmark.ts: its import did not settle within 2000 ms");
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  });

  it("run refuses bad settings, a binary prompt.md and an empty --model before anything starts, each named with what to do (exit 2)", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1e9, gates: { criteria: { correct: { min: 1 } } }, candidate: { providers: { control: { options: { baseURL: "http://127.0.0.1:9" } } }, container: { memoryMiB: 1, pidsLimit: 1 } } };\n`,
        "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      }),
    );
    await Bun.write(join(directory, "evals/answer/prompt.md"), new Uint8Array([0x52, 0x00, 0xff, 0xfe]));
    const result = await runCli(["run", "--benchmark", directory]);
    expect(result.exitCode).toBe(2);
    for (const expected of [
      "benchmark.ts: repetitions: must be at most 1000",
      'benchmark.ts: candidate.providers.control: "control" is the built-in provider of the scripted control models',
      "benchmark.ts: candidate.container.memoryMiB: must be at least 256 (MiB)",
      "benchmark.ts: candidate.container.pidsLimit: must be at least 64",
      "evals/answer/prompt.md: is not UTF-8 text",
    ]) {
      expect(result.stderr).toContain(expected);
    }
    expect(existsSync(join(directory, "results"))).toBe(false);
    const empty = await runCli(["run", "--benchmark", directory, "--model="]);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain("--model was given an empty value; give provider/model, or leave the flag out");
  });
});
