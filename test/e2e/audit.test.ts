// `openeval audit` refuses an --eval that names no eval before it starts anything, listing the evals there are.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { minimalBenchmark, writeTree } from "../helpers/fixtures.ts";

describe("openeval audit --eval", () => {
  it("names an unknown eval and the valid ones, exits 2, and records nothing", async () => {
    const directory = await writeTree(minimalBenchmark());
    const result = await runCli(["audit", "--benchmark", directory, "--eval", "answer,mystery"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'error OE_SCOPE_INVALID: --eval "mystery" matches no eval; the valid values are: answer',
    );
    expect(existsSync(join(directory, "results"))).toBe(false);
    const json = await runCli(["audit", "--benchmark", directory, "--eval", "mystery", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: "OE_SCOPE_INVALID", message: '--eval "mystery" matches no eval; the valid values are: answer' },
    });
  });
});
