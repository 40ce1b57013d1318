import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { resolveJudgeImport } from "./resolve-judge-import.ts";

const HARNESS_SRC = join(import.meta.dirname, "..");

describe("resolveJudgeImport", () => {
  it("resolves openeval to this harness from anywhere, a folder with no node_modules included", async () => {
    const elsewhere = await makeTempDir();
    expect(resolveJudgeImport("openeval", elsewhere)).toBe(join(HARNESS_SRC, "index.ts"));
    expect(resolveJudgeImport("openeval/scorers", elsewhere)).toBe(join(HARNESS_SRC, "judge", "scorers", "index.ts"));
  });

  it("resolves builtins to themselves and packages from the importer's node_modules", async () => {
    const directory = await writeTree({
      "node_modules/left-pad/package.json": `{ "name": "left-pad", "version": "1.3.0", "main": "index.js" }`,
      "node_modules/left-pad/index.js": "module.exports = 1;\n",
      "evals/x/judge.ts": "",
    });
    expect(resolveJudgeImport("node:fs", join(directory, "evals", "x"))).toBe("node:fs");
    expect(resolveJudgeImport("fs", join(directory, "evals", "x"))).toBe("fs");
    expect(resolveJudgeImport("left-pad", join(directory, "evals", "x"))).toBe(
      join(directory, "node_modules", "left-pad", "index.js"),
    );
    expect(resolveJudgeImport("right-pad", join(directory, "evals", "x"))).toBeNull();
  });

  it("finds nothing where no node_modules is at or above the folder (where Bun would install from the registry)", async () => {
    expect(resolveJudgeImport("left-pad", await makeTempDir())).toBeNull();
  });
});
