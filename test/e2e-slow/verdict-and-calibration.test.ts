// Journeys through decisions: gates just above/below a score, an incomplete run (exit 3) that cannot become a
// baseline, JUnit/Markdown reports, and calibration that names a judge that cannot tell controls apart.
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, writeTree } from "../helpers/fixtures.ts";

let provider: ControlServer;
let directory: string;

/** benchmark.ts for a real-looking provider "local" served by a control server, with the given gates. */
function benchmarkSource(gates: string, models = `["local/half"]`): string {
  return `export default {
  models: ${models},
  repetitions: 1,
  candidate: { timeoutMs: 60_000, isolation: "process", providers: { local: { npm: "@ai-sdk/openai-compatible", options: { baseURL: ${JSON.stringify(provider.baseURL("shared"))} },
    models: { half: { name: "half", tool_call: true, limit: { context: 128000, output: 8192 } }, broken: { name: "broken", tool_call: true, limit: { context: 128000, output: 8192 } } } } } },
  gates: ${gates},
};\n`;
}

beforeAll(async () => {
  provider = await startControlServer({
    controls: {
      shared: {
        half: { turns: [{ text: "APPLE" }] },
        broken: { turns: [{ error: { status: 500, message: "down" } }] },
      },
    },
  });
  directory = await writeTree({
    "benchmark.ts": "",
    "evals/apple/prompt.md": "Reply with exactly APPLE, then a pear.\n",
    "evals/apple/judge.ts": `export default ({ response }) => ({ scores: { apple: response.text.includes("APPLE"), pear: response.text.includes("PEAR") } });\n`,
  });
});

afterAll(async () => {
  await provider?.close();
});

describe("gates, exit codes and baselines", () => {
  it("exits 1 naming the gate when score.min is just above the score, 0 just below", async () => {
    await writeFile(join(directory, "benchmark.ts"), benchmarkSource(`{ score: { min: 0.51 } }`));
    const above = await runCli([
      "run",
      "--benchmark",
      directory,
      "--gate",
      "gates",
      "--junit",
      join(directory, "junit.xml"),
      "--summary",
      join(directory, "summary.md"),
    ]);
    expect(above.exitCode, above.stdout + above.stderr).toBe(1);
    expect(above.stdout).toMatch(/local\/half \(unsandboxed\)\s+50\.0%/);
    expect(above.stdout).toMatch(/gates\s+fail — failing: score\.min/);
    expect(readFileSync(join(directory, "junit.xml"), "utf8")).toContain('<testsuite name="local/half"');
    expect(readFileSync(join(directory, "summary.md"), "utf8")).toContain("## ❌ openeval: fail");
    // The finished run's summary again, without running anything: what run printed, with its exit code.
    const report = await runCli(["report", "--benchmark", directory]);
    expect([report.exitCode, report.stdout]).toEqual([1, above.stdout]);

    await writeFile(join(directory, "benchmark.ts"), benchmarkSource(`{ score: { min: 0.49 } }`));
    const below = await runCli(["run", "--benchmark", directory, "--gate", "gates"]);
    expect(below.exitCode, below.stdout).toBe(0);
    expect(below.stderr).not.toContain("candidate ");
  });

  it("rejects unknown contributor ids, listing the valid ones", async () => {
    const result = await runCli(["run", "--benchmark", directory, "--gate", "gatez"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/gatez.*code-judge, llm-judge, gates, regression/);
  });

  it("exits 3 with a failing slot left unjudged, and refuses that run as a baseline, leaving baseline.json unchanged", async () => {
    await writeFile(
      join(directory, "benchmark.ts"),
      benchmarkSource(`{ score: { min: 0.49 } }`, `["local/half", "local/broken"]`),
    );
    const incomplete = await runCli(["run", "--benchmark", directory, "--gate", "gates"]);
    expect(incomplete.exitCode, incomplete.stderr + incomplete.stdout).toBe(3);
    expect(incomplete.stdout).toMatch(
      /apple × local\/broken #1 \[eval run eval_[0-9a-f-]+\]: failed — Infrastructure error/,
    );
    const runs = join(directory, "results");
    const runDirectory = join(runs, (await import("node:fs")).readdirSync(runs)[0]!);
    const refused = await runCli(["baseline", "set", runDirectory, "--benchmark", directory]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/incomplete/);
    expect(existsSync(join(directory, "baseline.json"))).toBe(false);
  });
});

describe("openeval calibrate", () => {
  it("passes judges that tell the controls apart and names one that does not (exit 1)", async () => {
    const root = await writeTree({
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1, candidate: { timeoutMs: 60_000 } };\n`,
      "evals/good/prompt.md": "Say yes.\n",
      "evals/good/judge.ts": `export default ({ response }) => ({ scores: { said_yes: response.text === "yes" } });\n`,
      "evals/good/controls/positive.json": JSON.stringify({ turns: [{ text: "yes" }] }),
      "evals/good/controls/negative.json": JSON.stringify({ turns: [{ text: "no" }] }),
      "evals/blind/prompt.md": "Say yes.\n",
      "evals/blind/judge.ts": `export default () => ({ scores: { said_yes: true } });\n`,
      "evals/blind/controls/positive.json": JSON.stringify({ turns: [{ text: "yes" }] }),
      "evals/blind/controls/negative.json": JSON.stringify({ turns: [{ text: "no" }] }),
    });
    const result = await runCli(["calibrate", "--benchmark", root], { timeoutMs: 500_000 });
    expect(result.exitCode, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^pass\s+good × control\/negative/m);
    expect(result.stdout).toMatch(/^fail\s+blind × control\/negative \(negative\).*does not tell it apart/m);
    expect(result.stdout).toContain("Suspect judges: blind");
    expect(existsSync(join(root, "results"))).toBe(true);
  });
});
