// Journey: a user reads an error's code beside its message on stderr, and a script reads the same code from the one
// JSON object `--json` prints on stdout, without parsing the message.
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { minimalBenchmark, writeTree } from "../helpers/fixtures.ts";

describe("an error's code on stderr and in --json", () => {
  it("a broken benchmark: `error OE_BENCHMARK_INVALID: …` on stderr, and the code and message as JSON on stdout", async () => {
    const directory = await writeTree(
      minimalBenchmark({ "benchmark.ts": `export default { models: ["p/m"], colour: "red" };\n` }),
    );
    const result = await runCli(["plan", "--new", "--json", "--benchmark", directory]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error OE_BENCHMARK_INVALID: The benchmark has 1 problem:\n {2}benchmark.ts: unknown key "colour"/,
    );
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({
      error: { code: "OE_BENCHMARK_INVALID", message: expect.stringContaining('benchmark.ts: unknown key "colour"') },
    });
    expect(result.stderr).toBe(`error OE_BENCHMARK_INVALID: ${printed.error.message}\n`);
  });

  it("a flag a command does not take: OE_USAGE, in JSON too when the command prints JSON", async () => {
    const result = await runCli(["report", "--json", "--colour"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error OE_USAGE: report does not take --colour; the options it takes are listed below\n/,
    );
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: "OE_USAGE", message: expect.stringMatching(/^report does not take --colour/) },
    });
  });

  it("an unreadable baseline.json: OE_BASELINE_INVALID", async () => {
    const directory = await writeTree(minimalBenchmark({ "baseline.json": "{ not json" }));
    const result = await runCli(["baseline", "show", "--json", "--benchmark", directory]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error OE_BASELINE_INVALID: \S*baseline\.json is not a valid baseline:\n {2}not JSON: /,
    );
    expect(JSON.parse(result.stdout).error.code).toBe("OE_BASELINE_INVALID");
  });

  it("without --json, stdout stays empty and an unknown command has a code too", async () => {
    const result = await runCli(["colour"]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error OE_USAGE: unknown command "colour"; the commands are: run, /);
  });

  it("one wording for a command given more than one run: how many, then which", async () => {
    for (const command of [["verify"], ["export", "--output", "out"]]) {
      const result = await runCli([...command, "a", "b"]);
      expect([result.exitCode, result.stderr]).toEqual([
        2,
        `error OE_USAGE: ${command[0]} takes one run; got 2: a b\n`,
      ]);
    }
  });
});
