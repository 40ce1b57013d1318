import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { BenchmarkInvalidError } from "./errors.ts";
import { createConfigImporter } from "./import-config.ts";
import { loadBenchmark } from "./load-benchmark.ts";
import { BenchmarkSchema } from "./schema.ts";

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  const error = await loadBenchmark(await writeTree(minimalBenchmark(files))).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(BenchmarkInvalidError);
  return (error as BenchmarkInvalidError).problems.map((problem) => `${problem.file}: ${problem.message}`);
}

describe("loading author settings in a child process, bounded", () => {
  it("an import that never settles is a load error naming the file within the limit (OPENEVAL_CONFIG_TIMEOUT_MS), and the rest still loads", async () => {
    process.env.OPENEVAL_CONFIG_TIMEOUT_MS = "1500";
    const started = Date.now();
    const problems = await problemsOf({
      "benchmark.ts": `export default { models: ["provider/model"] };\n`,
      "evals/answer/eval.ts": `await new Promise(() => {});\nexport default {};\n`,
      "evals/busy/prompt.md": "x\n",
      "evals/busy/judge.ts": "export default () => ({ scores: {} });\n",
      "evals/busy/eval.ts": `while (true) {}\nexport default {};\n`,
      "evals/fine/prompt.md": "x\n",
      "evals/fine/judge.ts": "export default () => ({ scores: {} });\n",
      "evals/fine/eval.ts": `export default { timeoutMs: 60_000, nope: 1 };\n`,
    }).finally(() => delete process.env.OPENEVAL_CONFIG_TIMEOUT_MS);
    expect(problems).toEqual([
      expect.stringMatching(/^evals\/answer\/eval.ts: its import did not settle within 1500 ms/),
      expect.stringMatching(
        /^evals\/busy\/eval.ts: its import did not settle within 1500 ms \(a top-level await that never resolves, or a loop\); fix it, or raise OPENEVAL_CONFIG_TIMEOUT_MS/,
      ),
      expect.stringMatching(/^evals\/fine\/eval.ts: unknown key "nope"/),
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    process.env.OPENEVAL_CONFIG_TIMEOUT_MS = "soon";
    await expect(loadBenchmark(await writeTree(minimalBenchmark()))).rejects.toThrow(
      'OPENEVAL_CONFIG_TIMEOUT_MS: takes a whole number of milliseconds from 1; got "soon"',
    );
    delete process.env.OPENEVAL_CONFIG_TIMEOUT_MS;
  });

  it("a settings module that ends its process while imported is named as such, not as a hang", async () => {
    const problems = await problemsOf({
      "benchmark.ts": `process.exit(0);\nexport default { models: ["provider/model"] };\n`,
      "evals/answer/eval.ts": `process.kill(process.pid, "SIGKILL");\nexport default {};\n`,
    });
    expect(problems).toEqual([
      "benchmark.ts: its import ended the process (exit code 0), e.g. with process.exit(); a settings module only exports its settings: remove the call",
      "evals/answer/eval.ts: its import ended the process (killed by SIGKILL), e.g. with process.exit(); a settings module only exports its settings: remove the call",
    ]);
  });

  it("a benchmark.ts whose import waits on an import that never settles fails within the limit", async () => {
    const importer = createConfigImporter(1_000);
    const directory = await writeTree({
      "benchmark.ts": `import "./hang.ts";\nexport default { models: ["p/m"] };\n`,
      "hang.ts": "while (true) {}\n",
    });
    try {
      await expect(importer.import(`${directory}/benchmark.ts`, BenchmarkSchema)).rejects.toThrow(
        /did not settle within 1000 ms/,
      );
    } finally {
      importer.close();
    }
  });

  it("a package that benchmark.ts or eval.ts imports and no node_modules holds is named, with what to do", async () => {
    const problems = await problemsOf({
      "benchmark.ts": `import { VERIFICATION_IMAGE } from "openeval";\nexport default { models: ["provider/model"], judge: { verification: { image: VERIFICATION_IMAGE } } };\n`,
      "evals/answer/eval.ts": `import { z } from "@scope/settings-helper/z";\nexport default { timeoutMs: z };\n`,
    });
    expect(problems).toEqual([
      "benchmark.ts: could not be loaded: it imports openeval, which is not installed in the benchmark's folder; import only types from it there (`import type`), or install openeval in that folder (docs/using-openeval.md)",
      `evals/answer/eval.ts: could not be loaded: it imports "@scope/settings-helper", which is not installed in the benchmark's folder; install it there (npm install @scope/settings-helper)`,
    ]);
  });

  it("settings hold plain data only: a function or class instance is an error naming where it is", async () => {
    const problems = await problemsOf({
      "benchmark.ts": `export default { models: ["provider/model"], candidate: { providers: { p: { make: () => 1 } } } };\n`,
    });
    expect(problems).toEqual([
      "benchmark.ts: default export.candidate.providers.p.make is a function; settings take plain data (strings, numbers, booleans, arrays, objects)",
    ]);
    expect(
      await problemsOf({
        "benchmark.ts": `export default { models: ["provider/model"], candidate: { providers: { p: { at: new Date(0) } } } };\n`,
      }),
    ).toEqual([
      "benchmark.ts: default export.candidate.providers.p.at is a Date instance; settings take plain objects",
    ]);
  });
});
