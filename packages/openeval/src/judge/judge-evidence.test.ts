import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { recordEvidence, type EvidenceRef } from "../recording/index.ts";
import { judgeEvidence } from "./judge-evidence.ts";

let evidence: EvidenceRef;
beforeAll(async () => {
  evidence = await recordEvidence({
    directory: join(await makeTempDir(), "evidence"),
    prompt: "Reply with exactly APPLE.",
    response: "APPLE",
    tools: [{ name: "bash", input: { command: "ls" }, output: "a.txt" }],
    workspace: { initial: { "a.txt": "one\n" }, final: { "a.txt": "two\n", "b.txt": "new\n" } },
  });
});

/** Grades the shared evidence with a judge whose body is `source`. */
async function grade(source: string, timeoutMs?: number) {
  const directory = await writeTree({ "judge.ts": source });
  const audit = join(await makeTempDir(), "audit");
  const result = await judgeEvidence({
    evidence,
    code: join(directory, "judge.ts"),
    directory: audit,
    judge: timeoutMs ? { timeoutMs } : undefined,
  });
  return { result, audit };
}

const returning = (score: string) => `export default () => ({ scores: { criterion_a: ${score} } });\n`;

describe("judgeEvidence with code judges: score normalization", () => {
  it.each([
    ["true", 1],
    ["false", 0],
    ["0.375", 0.375],
    ["0", 0],
    ["1", 1],
  ])("%s gives credit %s", async (score, credit) => {
    const { result } = await grade(returning(score));
    expect(result.state).toBe("completed");
    expect(result.scores).toEqual({ criterion_a: { value: credit, source: "judge.ts" } });
    expect(result.value).toBe(credit);
  });

  it("null is unresolved, and the eval value is null", async () => {
    const { result } = await grade(returning("null"));
    expect(result.state).toBe("completed");
    expect(result.scores.criterion_a).toEqual({ value: null, source: "judge.ts" });
    expect(result.value).toBeNull();
  });

  it("keeps reason, evidence and measurements of a structured score", async () => {
    const { result } = await grade(
      returning(`{ value: 0.5, reason: "half", evidence: [{ kind: "response" }], measurements: { n: 2 } }`),
    );
    expect(result.scores.criterion_a).toEqual({
      value: 0.5,
      source: "judge.ts",
      reason: "half",
      evidence: [{ kind: "response" }],
      measurements: { n: 2 },
    });
  });

  it.each([
    ["1.5", "1.5"],
    ["-0.1", "-0.1"],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    [`"1"`, `"1" (a string)`],
    ["undefined", "undefined"],
    [`{ value: 2 }`, "2"],
  ])("%s fails the judge run, naming the criterion and the value, never clamped", async (score, shown) => {
    const { result } = await grade(returning(score));
    expect(result.state).toBe("failed");
    expect(result.error).toContain(`criterion "criterion_a" has value ${shown}`);
    expect(result.scores).toEqual({});
    expect(result.value).toBeNull();
  });

  it("an output without scores is unscored, not dropped, and its JSON is kept as returned", async () => {
    const { result, audit } = await grade(
      `export default () => ({ checks: [{ name: "a", pass: true }], note: "no scores" });\n`,
    );
    expect(result.state).toBe("completed");
    expect(result.scores).toEqual({});
    expect(result.value).toBeNull();
    expect(result.output).toEqual({ checks: [{ name: "a", pass: true }], note: "no scores" });
    expect(JSON.parse(await readFile(join(audit, "result.json"), "utf8")).output).toEqual(result.output);
  });

  it("retains custom JSON beside the normalized scores", async () => {
    const { result } = await grade(
      `export default () => ({ scores: { ok: true }, elapsedMs: 1400, reportedCoverage: "3/5" });\n`,
    );
    expect(result.output).toEqual({ scores: { ok: true }, elapsedMs: 1400, reportedCoverage: "3/5" });
    expect(result.scores.ok).toEqual({ value: 1, source: "judge.ts" });
  });
});

describe("judgeEvidence: the judge sees the recording", () => {
  it("reads response, prompt, run, tools, metrics and the workspace", async () => {
    const { result } = await grade(`
export default async (ctx) => ({
  scores: { all_seen: ctx.response.text === "APPLE" && ctx.prompt.startsWith("Reply") && ctx.run === null },
  tools: ctx.recording.tools().map((tool) => tool.name),
  errorRate: ctx.metrics.tools.errorRate,
  final: await ctx.workspace.text("a.txt"),
  initial: await ctx.workspace.text("a.txt", "initial"),
  files: ctx.workspace.files().map((file) => file.path),
  diff: (await ctx.workspace.patches()).map((file) => [file.path, file.status]),
});
`);
    expect(result.state).toBe("completed");
    expect(result.value).toBe(1);
    expect(result.output).toMatchObject({
      tools: ["bash"],
      errorRate: 0,
      final: "two\n",
      initial: "one\n",
      files: ["a.txt", "b.txt"],
      diff: [
        ["a.txt", "modified"],
        ["b.txt", "added"],
      ],
    });
  });
});

describe("judgeEvidence: failures are recorded results", () => {
  it("an infinite loop ends timed_out within about a second of the limit", async () => {
    const started = performance.now();
    const { result } = await grade(`export default () => { while (true) {} };\n`, 2000);
    const elapsed = performance.now() - started;
    expect(result.state).toBe("timed_out");
    expect(result.error).toContain("exceeded its 2000 ms time limit");
    expect(result.elapsedMs).toBeGreaterThanOrEqual(2000);
    expect(result.elapsedMs).toBeLessThan(3000);
    expect(elapsed).toBeLessThan(6000);
  });

  it("keeps the host responsive while a judge loops", async () => {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 100);
    await grade(`export default () => { while (true) {} };\n`, 1500);
    clearInterval(interval);
    expect(ticks).toBeGreaterThanOrEqual(8);
  });

  it("a throw, a process exit and a non-JSON return fail the judge run", async () => {
    const thrown = await grade(`export default () => { throw new Error("boom from judge"); };\n`);
    expect(thrown.result).toMatchObject({ state: "failed", error: "boom from judge" });
    const exited = await grade(`export default () => { process.exit(3); };\n`);
    expect(exited.result.state).toBe("failed");
    expect(exited.result.error).toContain("exited with code 3");
    const cycle = await grade(`export default () => { const a = { scores: { ok: true } }; a.self = a; return a; };\n`);
    expect(cycle.result.error).toContain("result.self refers back to itself");
    const instance = await grade(`export default () => ({ scores: { ok: true }, when: new Date(0) });\n`);
    expect(instance.result.error).toContain("result.when is an object (Date)");
    const notObject = await grade(`export default () => 42;\n`);
    expect(notObject.result.error).toContain("judge.ts must return an object");
  });

  it("enforces declared criteria and rejects bad criterion ids", async () => {
    const missing = await grade(
      `export const criteria = ["a", "b"];\nexport default () => ({ scores: { a: true } });\n`,
    );
    expect(missing.result.error).toContain("missing b");
    const badId = await grade(`export default () => ({ scores: { "Bad-Id": true } });\n`);
    expect(badId.result.error).toContain('criterion id "Bad-Id"');
  });

  it("keeps stdout, stderr, the frozen bundle and the result in the audit directory", async () => {
    const { result, audit } = await grade(
      `console.log("to stdout"); console.error("to stderr");\nexport default () => ({ scores: { ok: true } });\n`,
    );
    expect(result.state).toBe("completed");
    expect(await readFile(join(audit, "code", "stdout.log"), "utf8")).toContain("to stdout");
    expect(await readFile(join(audit, "code", "stderr.log"), "utf8")).toContain("to stderr");
    expect(await readFile(join(audit, "code", "judge.js"), "utf8")).toContain("to stdout");
    for (const file of ["input.json", "result.json", "code/output.json", "code/dependencies.json"])
      expect(existsSync(join(audit, file))).toBe(true);
  });

  it("resolves imports of openeval itself to the grading harness, wherever the eval folder lives", async () => {
    const { result } = await grade(
      `import { exactMatch } from "openeval/scorers";\nexport default (ctx) => ({ scores: { exact: exactMatch(ctx, "APPLE") } });\n`,
    );
    expect(result.error).toBeUndefined();
    expect(result.scores.exact?.value).toBe(1);
  });

  it("a judge.ts that does not compile is a failed judging", async () => {
    const { result } = await grade(`export default () => ({ scores: { ok: true } ;\n`);
    expect(result.state).toBe("failed");
    expect(result.error).toMatch(/^judge.ts does not compile/);
  });

  it("refuses evidence that was altered after recording", async () => {
    const directory = await writeTree({ "judge.ts": returning("true") });
    await expect(
      judgeEvidence({
        evidence: { ...evidence, hash: "0".repeat(64) },
        code: join(directory, "judge.ts"),
        directory: await makeTempDir(),
      }),
    ).rejects.toThrow(/the recording was changed after it was written/);
  });
});

describe("judgeEvidence: ctx.verification (the same machinery as a run)", () => {
  const VERIFYING = `export default async (ctx) => {
  try {
    await ctx.verification.run({ commands: [["true"]] });
    return { scores: { verified: true } };
  } catch (error) {
    return { scores: { verified: false }, message: String(error.message) };
  }
};
`;

  it("binds ctx.verification to judge.verification's image, and a missing image is the reason its runs fail", async () => {
    const directory = await writeTree({ "judge.ts": VERIFYING });
    const audit = join(await makeTempDir(), "audit");
    const result = await judgeEvidence({
      evidence,
      code: join(directory, "judge.ts"),
      directory: audit,
      judge: { verification: { image: "openeval-test-absent:none" } },
    });
    expect(result.state).toBe("completed");
    const message = (result.output as { message: string }).message;
    // With an engine the named image is missing; without one, the engine is: either way the run says how to fix it.
    expect(message).toMatch(
      /openeval-test-absent:none \(judge\.verification\.image\) is not on|openeval image --verification/,
    );
    expect(message).not.toMatch(/judgeEvidence|not available/);
    expect(result.verification).toEqual([]);
    expect(JSON.parse(await readFile(join(audit, "input.json"), "utf8")).judge.verification).toEqual({
      image: "openeval-test-absent:none",
    });
  });

  it("refuses an unknown judge.verification key, naming it", async () => {
    const directory = await writeTree({ "judge.ts": VERIFYING });
    await expect(
      judgeEvidence({
        evidence,
        code: join(directory, "judge.ts"),
        directory: await makeTempDir(),
        judge: { verification: { colour: "red" } as never },
      }),
    ).rejects.toThrow(/judgeEvidence: .*colour/);
  });
});
