// Journey: `openeval report [<run>]` prints a recorded run's summary as `run` printed it (table, verdict, what is not
// finished; --json, --markdown, --junit), with run's exit code, and starts nothing: no OpenCode, no control model
// server, no code judge. The runs here are written through the results store, as a runner seals them, so that the
// whole journey needs no model session.
import { readFileSync } from "node:fs";
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, minimalBenchmark, writeTree } from "../helpers/fixtures.ts";
import { recordedBenchmark, RUN_ID } from "../helpers/recorded-benchmark.ts";
import { findAll, parseXml } from "../helpers/xml.ts";

const CLI = join(import.meta.dirname, "..", "..", "packages", "openeval", "src", "cli", "main.ts");
const GUARD = join(import.meta.dirname, "..", "helpers", "start-nothing-guard.ts");

/** The CLI under Bun with the start-nothing guard preloaded; returns its result and what the guard logged. */
async function runGuarded(
  args: string[],
): Promise<{ exitCode: number; stdout: string; stderr: string; log: string[] }> {
  const log = join(await makeTempDir(), "guard.log");
  const child = Bun.spawn([process.execPath, "--preload", GUARD, CLI, ...args], {
    env: { ...process.env, OPENEVAL_GUARD_LOG: log },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const logged = await Bun.file(log)
    .text()
    .catch(() => "");
  return { exitCode, stdout, stderr, log: logged.split("\n").filter(Boolean) };
}

let directory: string;
let ran: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  directory = await recordedBenchmark(["p/m", "control/negative"], (model) => (model === "p/m" ? 1 : 0));
  // Every slot is recorded: `run` plans nothing but reuse, prints the summary and records the verdict's settings.
  ran = await runCli(["run", "--benchmark", directory]);
  expect(ran.exitCode, ran.stderr).toBe(0);
});

describe("openeval report [<run>]", () => {
  it("prints what run printed, with run's exit code, for the latest run, a run id or a run folder", async () => {
    expect(ran.stdout).toContain("Verdict: pass\n");
    for (const args of [[], [RUN_ID], [join(directory, "results", RUN_ID)]]) {
      const report = await runCli(["report", ...args, "--benchmark", directory]);
      expect(report.stderr).toBe("");
      expect([report.exitCode, report.stdout]).toEqual([ran.exitCode, ran.stdout]);
    }
  });

  it("starts no process, server or worker (but the one that reads benchmark.ts); the guard does catch a run that would", async () => {
    const report = await runGuarded(["report", "--benchmark", directory]);
    expect(report.stdout).toBe(ran.stdout);
    expect(report.log.length).toBeGreaterThan(0);
    expect(report.log.filter((line) => !/^allowed Bun\.spawn .*\/load\/config-worker\.ts$/.test(line))).toEqual([]);
    // A new run of the same benchmark has work to do: the guard refuses what it starts first (the control model server).
    const other = await recordedBenchmark(["p/m", "control/negative"], () => 1);
    const run = await runGuarded(["run", "--new", "--benchmark", other]);
    expect(run.exitCode).not.toBe(0);
    expect(run.log.filter((line) => line.startsWith("refused "))).toEqual(["refused Bun.serve"]);
    await rm(other, { recursive: true, force: true });
  });

  it("--json is the summary with the verdict's words, --markdown the Markdown summary, --junit a JUnit file with scores", async () => {
    const json = await runCli(["report", "--json", "--benchmark", directory]);
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({
      type: "summary",
      runId: RUN_ID,
      complete: true,
      verdict: { status: "pass", gated: true },
      verdictWords: { headline: "pass", reason: null },
    });
    const markdown = await runCli(["report", "--markdown", "--benchmark", directory]);
    expect(markdown.stdout).toMatch(/^## ✅ openeval: pass\n/);
    expect(markdown.stdout).toContain("| control/negative (control) | 0.0% |");
    const file = join(await makeTempDir(), "junit.xml");
    const junit = await runCli(["report", "--junit", file, "--benchmark", directory]);
    expect([junit.exitCode, junit.stdout]).toEqual([0, ran.stdout]);
    const scores = findAll(parseXml(readFileSync(file, "utf8")), "testcase")
      .filter((testCase) => testCase.attributes.name === "correct")
      .map((testCase) => [
        testCase.attributes.classname,
        findAll(testCase, "property").find((property) => property.attributes.name === "score")!.attributes.value,
      ]);
    expect(scores).toEqual([
      ["p/m.answer", "1.000"],
      ["control/negative.answer", "0.000"],
    ]);
  });

  it("exits 3 for an unfinished run, listing what is not finished, and words a controls-only run's pass as nothing gated", async () => {
    const unfinished = await recordedBenchmark(
      ["p/m"],
      () => 1,
      (repetition) => repetition === 2,
    );
    const report = await runCli(["report", "--benchmark", unfinished]);
    expect(report.exitCode).toBe(3);
    expect(report.stdout).toContain("Verdict: incomplete (some slots are not judged)");
    expect(report.stdout).toMatch(/1 slot not finished:\n  answer × p\/m #2 \[eval run eval_p_m_2\]: judge/);
    const controls = await recordedBenchmark(["control/positive", "control/negative"], (model) =>
      model === "control/positive" ? 1 : 0,
    );
    const nothing = await runCli(["report", "--benchmark", controls]);
    expect(nothing.exitCode).toBe(0);
    expect(nothing.stdout).toContain(
      "Verdict: nothing gated (no real model's criterion, gate or baseline cell was there to check; controls never enter the verdict)",
    );
  });

  it("reads a run whose recorded benchmark folder is gone (results copied elsewhere) with the --benchmark named", async () => {
    const original = await recordedBenchmark(["p/m"], () => 1);
    const copy = await makeTempDir();
    await cp(original, copy, { recursive: true });
    await rm(original, { recursive: true, force: true });
    const gone = await runCli(["report", join(copy, "results", RUN_ID)]);
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr).toContain(`benchmark.ts: not found in ${original}; create it or pass --benchmark <dir>`);
    const named = await runCli(["report", "--benchmark", copy]);
    expect(named.exitCode, named.stderr).toBe(0);
    expect(named.stdout).toContain("Verdict: pass\n");
  });

  it("says what to do when no run is recorded, and refuses what it would otherwise ignore", async () => {
    const empty = await writeTree(minimalBenchmark());
    const none = await runCli(["report", "--benchmark", empty]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain(
      `No runs under ${join(empty, "results")}; run one with \`npx openeval run\` or pass a run directory`,
    );
    const refusals: [string[], string][] = [
      [["--bogus"], "report does not take --bogus"],
      [["--junit"], "Option '--junit <value>' argument missing"],
      [
        ["nonexistent"],
        `nonexistent is not a run: pass a results/<run-id> folder or a run id under ${join(directory, "results")}`,
      ],
      [[RUN_ID, RUN_ID], `report takes one run (or --compare <run-a> <run-b>); got 2: ${RUN_ID} ${RUN_ID}`],
      [["--json", "--markdown"], "--json and --markdown each choose what stdout holds; pass one of them"],
      [["--model", "p/m"], "--model picks the two sides of --compare; a run's summary shows every model"],
      [
        ["--compare", "--markdown", RUN_ID, RUN_ID],
        "--markdown is for a run's summary, not --compare; drop it, or drop --compare",
      ],
    ];
    for (const [args, message] of refusals) {
      const result = await runCli(["report", "--benchmark", directory, ...args]);
      expect([result.exitCode, result.stderr], args.join(" ")).toEqual([2, expect.stringContaining(message)]);
    }
  });

  it("keeps --compare working, resolving run ids as a run's summary does", async () => {
    const compared = await runCli([
      "report",
      "--compare",
      RUN_ID,
      RUN_ID,
      "--model",
      "p/m,control/negative",
      "--benchmark",
      directory,
    ]);
    expect(compared.exitCode, compared.stderr).toBe(0);
    expect(compared.stdout).toContain("a: p/m  vs  b: control/negative");
    // A comparison it cannot make keeps its own code, on stderr and in --json.
    const itself = await runCli(["report", "--compare", RUN_ID, RUN_ID, "--json", "--benchmark", directory]);
    expect(itself.exitCode).toBe(2);
    expect(itself.stderr).toMatch(
      new RegExp(`^error OE_COMPARE_INVALID: Comparing run ${RUN_ID} with itself needs two of its models`),
    );
    expect(JSON.parse(itself.stdout).error.code).toBe("OE_COMPARE_INVALID");
  });
});

describe("openeval report --markdown --against-baseline", () => {
  it("refuses without baseline.json, naming the file and how to make one, and without --markdown or --summary", async () => {
    const missing = await runCli(["report", "--markdown", "--against-baseline", "--benchmark", directory]);
    expect([missing.exitCode, missing.stdout]).toEqual([2, ""]);
    expect(missing.stderr).toBe(
      `error OE_BASELINE_MISSING: No baseline at ${join(directory, "baseline.json")}, so there is nothing to compare the run with. ` +
        "Make one from an accepted run with `openeval baseline set <run-dir>` and commit it beside benchmark.ts, or drop --against-baseline\n",
    );
    const bare = await runCli(["report", "--against-baseline", "--benchmark", directory]);
    expect([bare.exitCode, bare.stderr]).toEqual([
      2,
      "error OE_USAGE: --against-baseline adds a section to the Markdown summary; pass --markdown (or --summary <file>) with it\n",
    ]);
  });

  it("adds the changes against baseline.json to the Markdown on stdout and in --summary's file", async () => {
    const copy = await makeTempDir();
    await cp(directory, copy, { recursive: true });
    expect((await runCli(["baseline", "set", RUN_ID, "--benchmark", copy])).exitCode).toBe(0);
    const summaryFile = join(copy, "summary.md");
    const report = await runCli([
      "report",
      "--markdown",
      "--against-baseline",
      "--summary",
      summaryFile,
      "--benchmark",
      copy,
    ]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toContain(`### Against baseline\n\nBaseline: run \`${RUN_ID}\``);
    expect(report.stdout).toMatch(/^\| p\/m \| 100\.0 \| 100\.0 \| ±0\.0.* \| 0 \| 0 \|$/m);
    expect(readFileSync(summaryFile, "utf8")).toBe(report.stdout.slice(0, -1));
  });
});
