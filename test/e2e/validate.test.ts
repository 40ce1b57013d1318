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
    expect(result.stdout).toContain("incident-summary: judge.md + judge.ts; criteria: supported_summary (judge.md), json_shape (judge.ts)");
    expect(result.stdout).toContain("tidy-build: judge.md; criteria: kept_sources (judge.md), removed_dist (judge.md); controls: negative, positive; earlyStop: checks ≥ 1000 ms apart, at most 6, judge spend ≤ $1");
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

  it("explains unknown commands and flags", async () => {
    const unknown = await runCli(["valdiate"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown command "valdiate"; the commands are: run, plan, retry, rejudge, baseline, report, calibrate, image, view, export, validate');
    const help = await runCli(["validate", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--benchmark <value>");
  });
});
