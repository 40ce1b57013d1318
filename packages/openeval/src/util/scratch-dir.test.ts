import { existsSync, readlinkSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { detectPidNamespace } from "../sandbox/process-tree.ts";
import {
  createScratchDir,
  reapOrphanedScratchDirs,
  removeOwnScratchDirsSync,
  removeScratchDir,
} from "./scratch-dir.ts";

const unshare = await detectPidNamespace();

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
    const namespace = readlinkSync("/proc/self/ns/pid");
    const orphanHere = await folder("openeval-eval_3-abc", { pid: dead.pid, start: "1", pidNamespace: namespace });
    const elsewhere = await folder("openeval-eval_4-abc", { pid: dead.pid, start: "1", pidNamespace: "pid:[1]" });
    expect(reapOrphanedScratchDirs(root).sort()).toEqual([reused, orphan, orphanHere].sort());
    for (const kept of [live, foreign, other, elsewhere]) expect(existsSync(kept)).toBe(true);
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

  // A reaper that judged pids from inside its own namespace deleted live runs' workspaces from under them.
  it.skipIf(unshare === null)("a reaper inside another PID namespace leaves a live owner's folder alone", async () => {
    const root = await makeTempDir("scratch-root-");
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = root;
    const mine = await createScratchDir("namespaced").finally(() =>
      previous === undefined ? delete process.env.TMPDIR : (process.env.TMPDIR = previous),
    );
    const reaper = `import { reapOrphanedScratchDirs } from ${JSON.stringify(new URL("./scratch-dir.ts", import.meta.url).pathname)}; console.log(JSON.stringify(reapOrphanedScratchDirs(${JSON.stringify(root)})));`;
    const child = Bun.spawn(
      [unshare!, "--pid", "--fork", "--kill-child", "--mount-proc", process.execPath, "-e", reaper],
      { stdout: "pipe", stderr: "pipe" },
    );
    const [removed, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(exitCode, await new Response(child.stderr).text()).toBe(0);
    expect(JSON.parse(removed)).toEqual([]);
    expect(existsSync(mine)).toBe(true);
    await removeScratchDir(mine);
  });
});
