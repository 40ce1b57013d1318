// The example benchmarks are what users run first and copy: a time limit tighter than the harness's defaults made
// the demo end incomplete on a loaded machine, and users' copies failed the same way.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Glob } from "bun";
import { describe, expect, it } from "vitest";
import { DEFAULT_JUDGE_TIMEOUT_MS, loadBenchmark } from "../../packages/openeval/src/load/index.ts";
import { DEFAULT_CANDIDATE_TIMEOUT_MS } from "../../packages/openeval/src/load/schema.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const EXAMPLES = [
  ROOT,
  join(ROOT, "examples", "verification"),
  join(ROOT, "examples", "audit"),
  join(ROOT, "examples", "cases"),
];

describe.each(EXAMPLES)("the example benchmark in %s", (directory) => {
  it("keeps the default time limits of candidates and judges, or looser ones", async () => {
    const benchmark = await loadBenchmark(directory);
    expect(benchmark.settings.judge.timeoutMs).toBeGreaterThanOrEqual(DEFAULT_JUDGE_TIMEOUT_MS);
    expect(benchmark.settings.candidate.timeoutMs).toBeGreaterThanOrEqual(DEFAULT_CANDIDATE_TIMEOUT_MS);
    for (const evaluation of benchmark.evals) {
      expect(evaluation.settings.timeoutMs ?? DEFAULT_CANDIDATE_TIMEOUT_MS, evaluation.id).toBeGreaterThanOrEqual(
        DEFAULT_CANDIDATE_TIMEOUT_MS,
      );
    }
  });

  it("gives a judge's verification commands at least half the judge's own time limit", async () => {
    for (const file of new Glob("evals/*/judge.ts").scanSync(directory)) {
      const source = await readFile(join(directory, file), "utf8");
      for (const match of source.matchAll(/timeoutMs:\s*([\d_]+)/g)) {
        expect(Number(match[1]!.replaceAll("_", "")), file).toBeGreaterThanOrEqual(DEFAULT_JUDGE_TIMEOUT_MS / 2);
      }
    }
  });
});
