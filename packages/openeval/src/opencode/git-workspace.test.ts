import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { createGitWorkspace } from "./git-workspace.ts";

describe("createGitWorkspace", () => {
  it("lays overlays over the source before the initial commit: their files are added or replace the source's", async () => {
    const source = await writeTree({ "a.txt": "source a\n", "b.txt": "source b\n" });
    const overlay = await writeTree({ "b.txt": "case b\n", "data/c.txt": "case c\n" });
    const target = join(await makeTempDir(), "workspace");
    await createGitWorkspace(target, source, { overlays: [overlay] });
    expect(await readFile(join(target, "a.txt"), "utf8")).toBe("source a\n");
    expect(await readFile(join(target, "b.txt"), "utf8")).toBe("case b\n");
    expect(await readFile(join(target, "data/c.txt"), "utf8")).toBe("case c\n");
    const status = Bun.spawnSync(["git", "status", "--porcelain"], { cwd: target }).stdout.toString();
    expect(status).toBe("");
  });
});
