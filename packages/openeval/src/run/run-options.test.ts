import { describe, expect, it } from "vitest";
import { runOptionsOf } from "./run-options.ts";

describe("runBenchmark's call shapes", () => {
  it("takes OpenEval's (path, options) as well as one options object", () => {
    const onEvent = () => {};
    expect(runOptionsOf("./bench", { new: true, onEvent })).toEqual({ benchmark: "./bench", new: true, onEvent });
    expect(runOptionsOf("./bench")).toEqual({ benchmark: "./bench" });
    expect(runOptionsOf({ benchmark: "./bench", scope: { offline: true } })).toEqual({
      benchmark: "./bench",
      scope: { offline: true },
    });
  });

  it("refuses OpenEval options spelled otherwise here, saying what to write", () => {
    expect(() => runOptionsOf("./bench", { dryRun: true, onlyModels: ["a/b"] } as never)).toThrow(
      "runBenchmark: unsupported options `dryRun` (use planBenchmark() with the same options), `onlyModels` (use `scope: { onlyModels }`)",
    );
    expect(() => runOptionsOf("./bench", { onlyCategories: ["speed"] } as never)).toThrow(
      "runBenchmark: unsupported option `onlyCategories` (use `scope: { onlyCategories }`)",
    );
    expect(() => runOptionsOf({ benchmark: ".", colour: true } as never)).toThrow(
      "runBenchmark: unsupported option `colour`",
    );
    expect(() => runOptionsOf(".", { benchmark: "." } as never)).toThrow(
      "the benchmark is the first argument; remove `benchmark` from the options",
    );
  });
});
