// A benchmark's version changes with its sources, so that the viewer's summary and a recorded one are made
// again: not only benchmark.ts, but an eval's judge too, which decides which judge runs are current; a runner writing
// results/ is no such change.
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchmarkVersion } from "./benchmark-version.ts";

const folder = await mkdtemp(join(tmpdir(), "openeval-summary-version-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("benchmarkVersion", () => {
  it("changes when an eval's judge is edited, and not when results/ grows", async () => {
    await mkdir(join(folder, "evals", "answer"), { recursive: true });
    await mkdir(join(folder, "results", "run-1"), { recursive: true });
    await writeFile(join(folder, "benchmark.ts"), "export default { models: [] };\n");
    await writeFile(join(folder, "evals", "answer", "judge.ts"), 'export default () => "APPLE";\n');
    const before = benchmarkVersion(folder);
    await writeFile(join(folder, "results", "run-1", "store.db"), "rows");
    expect(benchmarkVersion(folder)).toBe(before);
    // Same size ("PEACH" for "APPLE"), so the modification time must tell: set it apart from the first write's.
    await writeFile(join(folder, "evals", "answer", "judge.ts"), 'export default () => "PEACH";\n');
    await utimes(join(folder, "evals", "answer", "judge.ts"), new Date(), new Date(Date.now() + 5_000));
    expect(benchmarkVersion(folder)).not.toBe(before);
  });

  it("says missing for a folder that is gone", async () => {
    expect(benchmarkVersion(join(folder, "gone"))).toBe("missing");
  });
});
