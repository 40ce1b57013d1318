// judgeEvidence(): grades a recording (usually constructed evidence) with the same machinery as a run,
// and writes an audit folder: input, frozen bundle, logs, returned JSON and the result (SPEC §8.5).
import { resolve, join } from "node:path";
import * as z from "zod";
import { bundleCodeJudge } from "../load/index.ts";
import { openEvidence } from "../recording/index.ts";
import type { CriterionScore } from "../results/index.ts";
import { writeJsonAtomic } from "../util/files.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { DEFAULT_JUDGE_TIMEOUT_MS } from "../load/index.ts";
import { meanCredit } from "./normalize.ts";
import { runCodeJudge } from "./run-code-judge.ts";

const JudgeEvidenceOptionsSchema = z.strictObject({
  evidence: z.object({ directory: z.string(), hash: z.string() }),
  code: z.string().optional(),
  rubric: z.string().optional(),
  judge: z.strictObject({ timeoutMs: z.number().int().positive().optional(), model: z.string().optional() }).optional(),
  directory: z.string().min(1),
});

export type JudgeEvidenceOptions = z.input<typeof JudgeEvidenceOptionsSchema>;

export interface JudgeResult {
  state: "completed" | "failed" | "timed_out";
  scores: Record<string, CriterionScore>;
  /** Equal-weight mean of the criteria; null when any is unresolved or there are none. */
  value: number | null;
  /** The judge's returned JSON, exactly as returned. */
  output?: unknown;
  error?: string;
  elapsedMs: number;
}

/**
 * Grades evidence with a code judge; no model is called unless the judge itself calls one.
 * @example
 * const result = await judgeEvidence({ evidence, code: "./evals/exact-answer/judge.ts", directory: "./controls/apple/judge" });
 */
export async function judgeEvidence(options: JudgeEvidenceOptions): Promise<JudgeResult> {
  const parsed = JudgeEvidenceOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TypeError(`judgeEvidence: ${describeZodIssues(parsed.error).join("; ")}`);
  const input = parsed.data;
  if (!input.code && !input.rubric) throw new TypeError("judgeEvidence: pass `code` (a judge.ts path), `rubric`, or both");
  if (input.rubric !== undefined) {
    throw new TypeError("judgeEvidence: rubric (judge.md) grading needs the LLM rubric judge, which this version does not include yet; grade with `code`");
  }
  const directory = resolve(input.directory);
  const evidence = await openEvidence(resolve(input.evidence.directory), input.evidence.hash);
  const codeFile = resolve(input.code!);
  const timeoutMs = input.judge?.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
  await writeJsonAtomic(join(directory, "input.json"), { evidence: { directory: evidence.directory, hash: evidence.hash }, code: codeFile, timeoutMs });

  const startedAt = performance.now();
  let result: JudgeResult;
  try {
    const bundle = await bundleCodeJudge(codeFile);
    const execution = await runCodeJudge({
      bundle,
      evalDirectory: resolve(codeFile, ".."),
      evidence: { directory: evidence.directory, hash: evidence.hash },
      run: null,
      timeoutMs,
      directory: join(directory, "code"),
    });
    const scores = execution.scores ?? {};
    result = {
      state: execution.state,
      scores,
      value: execution.state === "completed" ? meanCredit(scores) : null,
      ...(execution.output === undefined ? {} : { output: execution.output }),
      ...(execution.error === undefined ? {} : { error: execution.error }),
      elapsedMs: execution.elapsedMs,
    };
  } catch (error) {
    // A judge.ts that does not bundle is a failed judging, recorded like any other.
    result = { state: "failed", scores: {}, value: null, error: `judge.ts ${(error as Error).message}`, elapsedMs: Math.round(performance.now() - startedAt) };
  }
  await writeJsonAtomic(join(directory, "result.json"), result);
  return result;
}
