import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { createScratchDir, reapOrphanedScratchDirs, removeOwnScratchDirsSync, removeScratchDir } from "./scratch-dir.ts";

describe("scratch folders", () => {
  it("records their owner; reaping removes only those whose owner died (or whose pid was reused)", async () => {
    const root = await makeTempDir("scratch-root-");
    const folder = async (name: string, owner: object | null) => {
      const directory = join(root, name);
      await mkdir(directory);
      if (owner) await writeFile(join(directory, ".owner"), JSON.stringify(owner));
      return directory;
    };
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const orphan = await folder("openeval-eval_1-abc", { pid: dead.pid, start: "1" });
    const reused = await folder("openeval-judge-2-abc", { pid: process.pid, start: "0" });
    const live = await folder("openeval-context-abc", { pid: process.pid, start: null });
    const foreign = await folder("openeval-test-abc", null);
    const other = await folder("unrelated-abc", { pid: dead.pid, start: "1" });
    expect(reapOrphanedScratchDirs(root).sort()).toEqual([reused, orphan].sort());
    for (const kept of [live, foreign, other]) expect(existsSync(kept)).toBe(true);
  });

  it("creates /tmp/openeval-<name>-* owned by this process, and removes its own synchronously for a forced exit", async () => {
    const first = await createScratchDir("unit");
    const second = await createScratchDir("unit");
    expect(first).toMatch(/\/openeval-unit-[^/]+$/);
    expect(reapOrphanedScratchDirs()).not.toContain(first); // its owner (this process) is alive
    await removeScratchDir(first);
    expect(existsSync(first)).toBe(false);
    removeOwnScratchDirsSync();
    expect(existsSync(second)).toBe(false);
  });
});
