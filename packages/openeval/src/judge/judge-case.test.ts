import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { recordEvidence } from "../recording/index.ts";
import type { EvalRun } from "../records/index.ts";
import { gradeEvalRun } from "./grade-eval-run.ts";
import { caseFactsText, judgeCaseOf } from "./judge-case.ts";
import { judgeUserPrompt } from "./rubric/judge-agent.ts";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

async function benchmarkWithCases() {
  return loadBenchmark(
    await writeTree(
      minimalBenchmark({
        "evals/answer/prompt.md": "Reply with {{{input.word}}}.\n",
        "evals/answer/cases.jsonl":
          line({ id: "apple", input: { word: "APPLE" }, expected: "APPLE", tags: ["fruit"] }) +
          line({ id: "bare", input: { word: "PEAR" } }),
        // The judge returns what it saw of the case, and grades the answer against the case's expected value.
        "evals/answer/judge.ts": `export default (ctx) => ({ scores: { correct: ctx.response.text === ctx.case?.expected }, seen: ctx.case });\n`,
        "evals/plain/prompt.md": "Reply.\n",
        "evals/plain/judge.ts": `export default (ctx) => ({ scores: { ok: true }, seen: ctx.case });\n`,
      }),
    ),
  );
}

async function grade(evaluation: Awaited<ReturnType<typeof benchmarkWithCases>>["evals"][number], caseId?: string) {
  const runDirectory = await makeTempDir();
  const evidence = await recordEvidence({ directory: join(runDirectory, "evidence"), prompt: "p", response: "APPLE" });
  const slot = {
    evalId: evaluation.id,
    model: "p/m",
    variant: "current",
    repetition: 1,
    ...(caseId ? { case: caseId } : {}),
  };
  const evalRun: EvalRun = {
    id: "eval_1",
    runId: "r",
    slot,
    control: false,
    state: "completed",
    infrastructureError: false,
    error: null,
    startedAt: "2026-01-01T00:00:00Z",
    completedAt: "2026-01-01T00:00:01Z",
    elapsedMs: 1000,
    input: { candidateFingerprint: "c", prompt: "p", timeoutMs: 1000, maxCostUSD: null, opencodeVersion: "x" },
    evidence: { directory: "evidence", hash: evidence.hash },
    metrics: null,
  };
  const judgeRun = await gradeEvalRun(
    {
      runId: "r",
      runDirectory,
      judgeRunId: "judge_1",
      evalRun,
      evaluation,
      settings: (await benchmarkWithCases()).settings,
      judgeFingerprint: "j",
      panel: null,
      save: () => {},
    },
    async () => ({ state: "failed", scores: null, error: "no rubric here" }),
  );
  return judgeRun;
}

describe("judges see the case", () => {
  it("judge.ts gets ctx.case = { id, input, expected, tags } for a case's eval run, and null for an eval without cases", async () => {
    const benchmark = await benchmarkWithCases();
    const [answer, plain] = benchmark.evals;
    const apple = await grade(answer!, "apple");
    expect(apple.scores).toEqual({ correct: { value: 1, source: "judge.ts" } });
    expect(apple.output).toMatchObject({
      seen: { id: "apple", input: { word: "APPLE" }, expected: "APPLE", tags: ["fruit"] },
    });
    const bare = await grade(answer!, "bare");
    expect(bare.output).toMatchObject({ seen: { id: "bare", input: { word: "PEAR" }, expected: null, tags: [] } });
    expect(bare.scores).toEqual({ correct: { value: 0, source: "judge.ts" } });
    expect((await grade(plain!)).output).toMatchObject({ seen: null });
  });

  it("a rubric judge is told the case's input and expected value as facts from the harness", async () => {
    const benchmark = await benchmarkWithCases();
    const item = judgeCaseOf(benchmark.evals[0]!, "apple")!;
    const facts = caseFactsText(item);
    expect(facts).toContain("- Case: apple (tags: fruit).");
    expect(facts).toContain('- Its input (the candidate\'s prompt was written from it): {"word":"APPLE"}');
    expect(facts).toContain('- Its expected value (the candidate was not told it, unless the prompt says so): "APPLE"');
    expect(caseFactsText({ ...item, expected: null })).toContain("- It gives no expected value.");
    const rubric = { text: "", criteria: [{ id: "clear" }] } as unknown as Parameters<typeof judgeUserPrompt>[0];
    expect(judgeUserPrompt(rubric, "final", facts)).toContain(facts);
    expect(judgeUserPrompt(rubric, "early", facts)).toContain(facts);
    expect(judgeCaseOf(benchmark.evals[1]!, undefined)).toBeNull();
  });
});
