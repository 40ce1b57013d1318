// judgeEvidence(): grades a recording (usually constructed evidence) with the same machinery as a run — a code
// judge in its own timed process (with ctx.verification in the sandboxed container when it uses it), a rubric
// judge as an OpenCode agent, or both (hybrid) — and writes an audit folder: input, frozen bundle, logs, returned
// JSON, verification receipts, the judge's session and the result.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import * as z from "zod";
import { ControlFileSchema, startControlServer, type ControlServer } from "@openeval/control-model";
import {
  BenchmarkSchema,
  bundleCodeJudge,
  mentionsVerification,
  parseRubric,
  VerificationSettingsSchema,
  type CodeJudgeBundle,
  type Rubric,
} from "../load/index.ts";
import { selectCredentials } from "../opencode/index.ts";
import { openEvidence, type VerificationReceipt } from "../recording/index.ts";
import type { CriterionScore } from "../records/index.ts";
import { writeJsonAtomic } from "../util/files.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { combineSources, JUDGE_RUN_FOLDERS } from "./grade-eval-run.ts";
import type { SourceOutcome } from "./judge-source.ts";
import { criterionMean } from "./normalize.ts";
import { gradeRubricTask } from "./rubric/index.ts";
import { runCodeJudge } from "./run-code-judge.ts";
import { readVerificationReceipts } from "./verification/index.ts";
import { resolveVerificationSetup } from "./verification-setup.ts";

const JudgeEvidenceOptionsSchema = z.strictObject({
  evidence: z.object({ directory: z.string(), hash: z.string() }),
  /** Path to a judge.ts. */
  code: z.string().optional(),
  /** A judge.md: its path, or its text. */
  rubric: z.string().optional(),
  judge: z
    .strictObject({
      timeoutMs: z.number().int().positive().optional(),
      /** The rubric judge's model (`provider/model`). */
      model: z.string().optional(),
      /** A scripted judge (a control file whose turns call judge_submit_judgment), for offline calibration. */
      script: ControlFileSchema.optional(),
      /** OpenCode provider config for the judge model. */
      providers: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
      /** ctx.verification for a judge.ts that uses it, as benchmark.ts `judge.verification` (default: the pinned image). */
      verification: VerificationSettingsSchema.optional(),
    })
    .optional(),
  directory: z.string().min(1),
});

export type JudgeEvidenceOptions = z.input<typeof JudgeEvidenceOptionsSchema>;

export interface JudgeResult {
  state: "completed" | "failed" | "timed_out" | "interrupted";
  scores: Record<string, CriterionScore>;
  /** Equal-weight mean of the criteria; null when any is unresolved or there are none. */
  value: number | null;
  /** The code judge's returned JSON, exactly as returned. */
  output?: unknown;
  error?: string;
  elapsedMs: number;
  /** The receipts of the code judge's ctx.verification runs (kept under `<directory>/verification/<id>/`). */
  verification: (VerificationReceipt & { id: string })[];
}

const SCRIPTED_JUDGE = "judge-script";

/**
 * Grades evidence; no model is called unless the judge itself calls one (a rubric judge does, unless scripted).
 * @example
 * const result = await judgeEvidence({ evidence, code: "./evals/exact-answer/judge.ts", directory: "./controls/apple/judge" });
 */
export async function judgeEvidence(options: JudgeEvidenceOptions): Promise<JudgeResult> {
  const parsed = JudgeEvidenceOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TypeError(`judgeEvidence: ${describeZodIssues(parsed.error).join("; ")}`);
  const input = parsed.data;
  if (!input.code && !input.rubric)
    throw new TypeError("judgeEvidence: pass `code` (a judge.ts path), `rubric` (a judge.md path or text), or both");
  if (input.rubric && !input.judge?.model && !input.judge?.script) {
    throw new TypeError(
      "judgeEvidence: a rubric needs judge.model (the model that grades) or judge.script (a scripted judge)",
    );
  }
  const directory = resolve(input.directory);
  const evidence = await openEvidence(resolve(input.evidence.directory), input.evidence.hash);
  const ref = { directory: evidence.directory, hash: evidence.hash };
  const timeoutMs = input.judge?.timeoutMs;
  const verification = input.judge?.verification ?? null;
  await writeJsonAtomic(join(directory, "input.json"), {
    evidence: ref,
    code: input.code ? resolve(input.code) : null,
    rubric: input.rubric ?? null,
    judge: { timeoutMs, model: input.judge?.model ?? null, scripted: Boolean(input.judge?.script), verification },
  });

  const startedAt = performance.now();
  const outcomes: SourceOutcome[] = [];
  let output: unknown;
  if (input.code) {
    const code = await gradeCode(
      resolve(input.code),
      ref,
      { timeoutMs, verification: input.judge?.verification },
      directory,
    );
    output = code.output;
    outcomes.push(code);
  }
  if (input.rubric) outcomes.push(await gradeRubric(input, ref, join(directory, JUDGE_RUN_FOLDERS.rubric)));

  const judgment = combineSources(outcomes);
  const scores = judgment.scores ?? {};
  const result: JudgeResult = {
    state: judgment.state,
    scores,
    value: judgment.state === "completed" ? criterionMean(scores) : null,
    ...(output === undefined ? {} : { output }),
    ...(judgment.error ? { error: judgment.error } : {}),
    elapsedMs: Math.round(performance.now() - startedAt),
    verification: await readVerificationReceipts(join(directory, JUDGE_RUN_FOLDERS.verification)),
  };
  await writeJsonAtomic(join(directory, "result.json"), result);
  return result;
}

type CodeJudgeSettings = {
  timeoutMs: number | undefined;
  verification: z.output<typeof VerificationSettingsSchema> | undefined;
};

/** Code judging as a run does it, in `<directory>/code/`; ctx.verification (when the judge uses it) keeps its receipts in `<directory>/verification/`. */
async function gradeCode(
  file: string,
  evidence: { directory: string; hash: string },
  options: CodeJudgeSettings,
  directory: string,
): Promise<SourceOutcome> {
  let bundle: CodeJudgeBundle;
  try {
    // The caller names this judge file itself: there is no benchmark folder its imports must stay in.
    bundle = await bundleCodeJudge(file, null);
  } catch (error) {
    // A judge.ts that does not bundle is a failed judging, recorded like any other.
    return { state: "failed", scores: null, error: `judge.ts ${(error as Error).message}` };
  }
  const settings = BenchmarkSchema.parse({
    models: ["control/none"],
    judge: {
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.verification ? { verification: options.verification } : {}),
    },
  });
  const setup = mentionsVerification({ code: bundle })
    ? await resolveVerificationSetup(settings.judge.verification)
    : null;
  const judgeRun = `judge_${crypto.randomUUID()}`;
  const execution = await runCodeJudge({
    bundle,
    evalDirectory: dirname(file),
    evidence,
    run: null,
    timeoutMs: settings.judge.timeoutMs,
    directory: join(directory, JUDGE_RUN_FOLDERS.code),
    marker: judgeRun,
    // A judge run on its own knows no eval's environment image.
    verification: setup
      ? { ...setup, judgeRun, directory: join(directory, JUDGE_RUN_FOLDERS.verification), environment: null }
      : null,
  });
  return {
    state: execution.state,
    scores: execution.scores,
    output: execution.output,
    ...(execution.error ? { error: execution.error } : {}),
  };
}

async function gradeRubric(
  input: z.output<typeof JudgeEvidenceOptionsSchema>,
  evidence: { directory: string; hash: string },
  directory: string,
): Promise<SourceOutcome> {
  let rubric: Rubric;
  try {
    const source = input.rubric!;
    rubric = parseRubric(source.endsWith(".md") && existsSync(source) ? await readFile(source, "utf8") : source);
  } catch (error) {
    return { state: "failed", scores: null, error: `judge.md ${(error as Error).message}` };
  }
  const script = input.judge?.script;
  const server: ControlServer | null = script
    ? await startControlServer({ controls: { constructed: { [SCRIPTED_JUDGE]: script } } })
    : null;
  try {
    const settings = BenchmarkSchema.parse({
      models: ["control/none"],
      judge: {
        model: script ? `control/${SCRIPTED_JUDGE}` : input.judge!.model,
        ...(input.judge?.timeoutMs ? { timeoutMs: input.judge.timeoutMs } : {}),
      },
      candidate: { providers: input.judge?.providers ?? {} },
    });
    return await gradeRubricTask(
      {
        judgeRunId: `judge_${crypto.randomUUID()}`,
        evidence,
        run: null,
        judgeModel: settings.judge.model!,
        candidateModel: null,
        evaluation: { id: "constructed", rubric, controls: {} },
        settings,
      },
      directory,
      {
        controlBaseURL: () => server?.baseURL("constructed") ?? null,
        selectCredentials: (model) => selectCredentials({ model, environment: process.env }),
      },
    );
  } finally {
    await server?.close();
  }
}
