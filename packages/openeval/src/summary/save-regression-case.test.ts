// A reviewed slot saved as a regression case: the case it ran, appended to regression.cases.jsonl under a new id and
// tagged reviewed, which the next load reads as a regression case; refused for an eval without cases or a case gone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { reviewedCase, saveRegressionCase } from "./save-regression-case.ts";

async function benchmarkWithCases() {
  const directory = await writeTree(
    minimalBenchmark({
      "evals/answer/prompt.md": "What is the capital of {{input.country}}?\n",
      "evals/answer/cases.jsonl":
        '{"id":"france","input":{"country":"France"},"expected":"Paris","tags":["europe"]}\n{"id":"japan","input":{"country":"Japan"}}\n',
    }),
  );
  return { directory, benchmark: await loadBenchmark(directory) };
}

const slotOf = (caseId?: string) => ({
  evalId: "answer",
  model: "p/m",
  repetition: 1,
  variant: "current",
  ...(caseId ? { case: caseId } : {}),
});

describe("saving a reviewed slot as a regression case", () => {
  it("appends the case it ran under a new id, tagged reviewed, and the next load reads it as a regression case", async () => {
    const { directory, benchmark } = await benchmarkWithCases();
    const source = reviewedCase(benchmark, { id: "eval_1", slot: slotOf("france") });
    const saved = saveRegressionCase(benchmark, source, { id: "review_1a2b3c4d-5e6f", slot: slotOf("france") });
    expect(saved).toEqual({ id: "france-reviewed-1a2b3c4d", file: "evals/answer/regression.cases.jsonl" });
    expect(readFileSync(join(directory, saved.file), "utf8")).toBe(
      '{"id":"france-reviewed-1a2b3c4d","input":{"country":"France"},"expected":"Paris","tags":["europe","reviewed"]}\n',
    );
    const again = await loadBenchmark(directory);
    const added = again.evals[0]!.cases!.find((item) => item.id === "france-reviewed-1a2b3c4d")!;
    expect(added).toMatchObject({
      input: { country: "France" },
      expected: "Paris",
      prompt: "What is the capital of France?\n",
    });
    expect(added.tags).toEqual(expect.arrayContaining(["europe", "reviewed", "regression"]));
  });

  it("refuses an eval run of an eval without cases, or of a case the benchmark no longer has, saying what to do", async () => {
    const plain = await loadBenchmark(await writeTree(minimalBenchmark()));
    expect(() => reviewedCase(plain, { id: "eval_1", slot: slotOf() })).toThrow(
      "review eval_1 --save-regression: eval answer ran it without cases, so there is no case input to save; give the eval a cases.jsonl",
    );
    const { benchmark } = await benchmarkWithCases();
    expect(() => reviewedCase(benchmark, { id: "eval_2", slot: slotOf("italy") })).toThrow(
      'review eval_2 --save-regression: eval answer of the benchmark no longer has the case "italy" it ran; restore the case',
    );
  });
});
