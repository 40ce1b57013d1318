// Only current blocks by default; a variant named with --variant blocks too.
import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import { summarizeRun } from "./summarize-run.ts";

describe("the verdict with variants", () => {
  it("a failing variant does not fail the verdict unless --variant names it", async () => {
    const { benchmark, store } = await recordedRun();
    const byDefault = await summarizeRun(benchmark, store, {}, "r");
    expect(byDefault.models.map((row) => [row.variant ?? "current", row.score.value])).toEqual([
      ["current", 100],
      ["worse", 0],
    ]);
    expect(byDefault.complete).toBe(true);
    expect(byDefault.verdict.status).toBe("pass");
    const named = await summarizeRun(benchmark, store, { variants: ["worse"] }, "r");
    expect(named.verdict.status).toBe("fail");
    expect(named.verdict.contributors.find((contributor) => contributor.id === "code-judge")!.failing).toEqual([
      "answer/p/m [worse]/correct",
    ]);
    store.close();
  });

  it("a blocking variant's score gate is its own, named by model and variant", async () => {
    const { benchmark, store } = await recordedRun("gates: { score: { min: 0.5 } }");
    const named = await summarizeRun(benchmark, store, { variants: ["worse"] }, "r");
    expect(named.verdict.contributors.find((contributor) => contributor.id === "gates")!.failing).toEqual([
      "score.min (p/m [worse])",
    ]);
    expect((await summarizeRun(benchmark, store, {}, "r")).verdict.status).toBe("pass");
    store.close();
  });
});
