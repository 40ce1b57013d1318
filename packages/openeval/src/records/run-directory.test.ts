// "Which run?" is answered in one place: a run directory, a run id under the benchmark's results/, or (none named)
// the latest run; anything else is refused in one wording by every caller.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { planBenchmark } from "../run/index.ts";
import { RunCatalog } from "../view/run-catalog.ts";
import { chooseRunDirectory, findRun, resolveRun } from "./run-directory.ts";
import { RunNotFoundError } from "./errors.ts";
import { ResultsStore } from "./store.ts";

const OLDER = "2026-12-01T10-00-00.000Z-0000aaaa";
const NEWER = "2026-12-02T10-00-00.000Z-0000bbbb";

/** A benchmark folder with two recorded runs (stores only) and a results/ folder that is not a run. */
async function benchmarkWithRuns(): Promise<string> {
  const folder = await writeTree(minimalBenchmark());
  for (const id of [OLDER, NEWER]) ResultsStore.open(join(folder, "results", id), { create: true }).close();
  mkdirSync(join(folder, "results", "notes"));
  return folder;
}

describe("which run", () => {
  it("is a run directory, a run id under results/, or the latest run", async () => {
    const folder = await benchmarkWithRuns();
    expect(findRun(folder, join(folder, "results", OLDER))).toBe(join(folder, "results", OLDER));
    expect(findRun(folder, OLDER)).toBe(join(folder, "results", OLDER));
    expect(findRun(folder)).toBe(join(folder, "results", NEWER));
    expect(resolveRun(folder)).toBe(join(folder, "results", NEWER));
    expect(chooseRunDirectory(folder, { run: OLDER })).toEqual({
      directory: join(folder, "results", OLDER),
      created: false,
    });
  });

  it("refuses --run with --new rather than pick one of them", async () => {
    const folder = await benchmarkWithRuns();
    expect(() => chooseRunDirectory(folder, { run: OLDER, new: true })).toThrow(
      expect.objectContaining({
        code: "OE_RUN_CHOICE_INVALID",
        message: "--run and --new contradict each other; pass one of them",
      }),
    );
  });

  it("is none for a benchmark with no run yet, and resolveRun says how to make one", async () => {
    const folder = await writeTree(minimalBenchmark());
    expect(findRun(folder)).toBeNull();
    expect(() => resolveRun(folder)).toThrow(new RunNotFoundError({ noneUnder: join(folder, "results") }));
    expect(() => resolveRun(folder)).toThrow(
      `No runs under ${join(folder, "results")}; run one with \`npx openeval run\` or pass a run directory`,
    );
  });

  it("refuses a folder or id that is not a run in one wording, with the code OE_RUN_NOT_FOUND, wherever it is named", async () => {
    const folder = await benchmarkWithRuns();
    const message = `notes is not a run: pass a results/<run-id> folder or a run id under ${join(folder, "results")}`;
    const refusals: (() => unknown)[] = [
      () => findRun(folder, "notes"),
      () => resolveRun(folder, "notes"),
      () => chooseRunDirectory(folder, { run: "notes" }),
      () => RunCatalog.open({ run: "notes", resultsRoot: join(folder, "results") }),
    ];
    for (const refusal of refusals) {
      expect(refusal).toThrow(message);
      expect(() => refusal()).toThrow(expect.objectContaining({ code: "OE_RUN_NOT_FOUND" }));
    }
    await expect(planBenchmark({ benchmark: folder, run: "notes" })).rejects.toThrow(message);
    expect(() => ResultsStore.open(join(folder, "results", "notes"))).toThrow(
      `${join(folder, "results", "notes")} is not a run: pass a results/<run-id> folder that openeval run wrote`,
    );
  });
});
