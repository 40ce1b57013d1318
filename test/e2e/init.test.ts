// Journey: `openeval init` through the real command: what it prints, where it points, and what it refuses.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe("openeval init", () => {
  it("writes a benchmark to the folder named, lists its files, and points to the next commands and the guides", async () => {
    const cwd = await makeTempDir();
    const result = await runCli(["init", "my-bench"], { cwd });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Wrote a benchmark to ${join(cwd, "my-bench")}:\n`);
    expect(result.stdout).toContain("  evals/fix-spelling/judge.ts\n");
    expect(result.stdout).toContain("  evals/summarize-meeting/judge.md\n");
    expect(result.stdout).toContain(
      "Next, offline with scripted control models: `openeval validate --benchmark my-bench`, `openeval run --benchmark my-bench`, `openeval calibrate --benchmark my-bench`.",
    );
    expect(result.stdout).toContain(`How to write good evals: ${join(ROOT, "docs", "writing-evals.md")}\n`);
    expect(result.stdout).toContain(`For a coding agent writing evals: ${join(ROOT, "llms.txt")}\n`);
    expect(existsSync(join(cwd, "my-bench", ".gitignore"))).toBe(true);

    const added = await runCli(["init", "my-bench", "--eval", "parse-dates"], { cwd });
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Added eval parse-dates to the benchmark in ${join(cwd, "my-bench")}:\n`);
    expect(added.stdout).toContain("  evals/parse-dates/judge.ts\n");
  });

  it("refuses an eval id that exists, or an invalid one, exiting 2 with the code", async () => {
    const cwd = await makeTempDir();
    expect((await runCli(["init"], { cwd })).exitCode).toBe(0);
    const taken = await runCli(["init", "--eval", "fix-spelling"], { cwd });
    expect(taken.exitCode).toBe(2);
    expect(taken.stderr).toBe(
      `error OE_INIT_WOULD_OVERWRITE: eval "fix-spelling" exists already (${join(cwd, "evals", "fix-spelling")}); init overwrites nothing: pick another id\n`,
    );
    const invalid = await runCli(["init", "--eval", "../up"], { cwd });
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/^error OE_INIT_EVAL_ID_INVALID: eval id "\.\.\/up" must start with a letter/);
  });

  it("refuses --rubric without --eval, and two folders (OE_USAGE), writing nothing", async () => {
    const cwd = await makeTempDir();
    const rubric = await runCli(["init", "--rubric"], { cwd });
    expect(rubric.exitCode).toBe(2);
    expect(rubric.stderr).toBe(
      "error OE_USAGE: --rubric chooses the judge of the eval --eval <id> adds; a new benchmark gets both kinds. Add --eval <id>, or drop --rubric\n",
    );
    const two = await runCli(["init", "a", "b"], { cwd });
    expect(two.exitCode).toBe(2);
    expect(two.stderr).toBe("error OE_USAGE: init takes one folder (default .); got 2: a b\n");
    expect(existsSync(join(cwd, "benchmark.ts")) || existsSync(join(cwd, "a"))).toBe(false);
  });
});
