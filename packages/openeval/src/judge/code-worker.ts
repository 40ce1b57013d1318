// The code-judge worker: runs in its own Bun process, one grading per process. It reads the job from stdin,
// opens the recording, calls the judge's default export and writes the returned JSON to the result file.
import { writeFileSync } from "node:fs";
import { createJudgeContext, openEvidence, type Evidence } from "../recording/index.ts";
import type { VerificationApi } from "./verification/index.ts";
import { JudgingError, normalizeJudgeOutput } from "./normalize.ts";
import { CodeJudgeJobSchema, type CodeJudgeJob, type WorkerResult } from "./schema.ts";
import { toStrictJson } from "./strict-json.ts";

const job = CodeJudgeJobSchema.parse(JSON.parse(await Bun.stdin.text()));
// The container client is loaded only for a judge that can use it: it is half of a worker's start-up time.
const verification = job.verification?.image ? await import("./verification/index.ts") : null;

function finish(result: WorkerResult): never {
  writeFileSync(job.output, result.ok ? `{"ok":true,"output":${toStrictJson(result.output)}}\n` : `${JSON.stringify(result)}\n`);
  process.exit(result.ok ? 0 : 1);
}

async function grade(): Promise<WorkerResult> {
  try {
    await using context = await createJudgeContext(await openEvidence(job.evidence.directory, job.evidence.hash), job.run, { verification: verificationFor(job) });
    const module = (await import(job.module)) as { default?: unknown };
    if (typeof module.default !== "function") {
      return { ok: false, error: `judge.ts must export a default function (ctx: JudgeContext) => { scores }; its default export is ${typeof module.default}` };
    }
    const returned: unknown = await (module.default as (context: unknown) => unknown)(context);
    // Validate here too, so that a NaN or undefined score is reported by criterion before JSON could hide it.
    normalizeJudgeOutput(returned, "judge.ts", job.declaredCriteria);
    toStrictJson(returned);
    return { ok: true, output: returned };
  } catch (error) {
    if (error instanceof Error && !(error instanceof JudgingError)) console.error(error.stack ?? error.message);
    return { ok: false, error: error instanceof Error ? error.message : `judge.ts threw ${String(error)}` };
  }
}

/** ctx.verification bound to this recording; when no image could be resolved, every run says why. */
function verificationFor(job: CodeJudgeJob): ((evidence: Evidence) => VerificationApi) | undefined {
  const settings = job.verification;
  if (!settings) return undefined;
  return (evidence) => {
    if (!settings.image) {
      const fail = async (): Promise<never> => {
        throw new Error(settings.unavailable ?? "no verification image");
      };
      return { run: fail, read: fail, text: fail };
    }
    return verification!.createVerificationApi({ image: settings.image, evidence, limits: settings.limits, judgeRun: settings.judgeRun, directory: settings.directory, engine: settings.engine });
  };
}

finish(await grade());
