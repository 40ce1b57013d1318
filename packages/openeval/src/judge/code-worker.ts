// The code-judge worker: its own Bun process, one grading per process. It reads the job from stdin, opens the
// recording, calls the judge's default export and writes the returned JSON. Bundled as CommonJS with bytecode (no
// top-level await; bundle-program.ts); files go through Bun.file/Bun.write, so a grading loads no Node fs module.
import { createJudgeContext, openSealedEvidence, type Evidence } from "../recording/index.ts";
import type { VerificationApi } from "../recording/index.ts";
import { JudgingError, normalizeJudgeOutput } from "./normalize.ts";
import type { CodeJudgeJob, WorkerResult } from "./schema.ts";
import { toStrictJson } from "./strict-json.ts";

type VerificationStage = typeof import("./verification/index.ts");

async function main(): Promise<never> {
  // Started before its job exists: everything imported above is loaded while it waits here. EOF with no job
  // means the runner is gone or needs no more graders: exit quietly.
  const input = await Bun.stdin.text();
  if (input === "") process.exit(0);
  const job = JSON.parse(input) as CodeJudgeJob;
  process.chdir(job.cwd);
  // The container client is loaded only for a judge that can use it: it is half of a worker's start-up time.
  const verification =
    job.verification?.image || job.verification?.environment ? await import("./verification/index.ts") : null;
  const result = await grade(job, verification);
  await Bun.write(
    job.output,
    result.ok ? `{"ok":true,"output":${toStrictJson(result.output)}}\n` : `${JSON.stringify(result)}\n`,
  );
  process.exit(result.ok ? 0 : 1);
}

async function grade(job: CodeJudgeJob, verification: VerificationStage | null): Promise<WorkerResult> {
  try {
    await using context = await createJudgeContext(
      await openSealedEvidence(job.evidence.directory, job.evidence.hash),
      job.run,
      { verification: verificationFor(job, verification), case: job.case },
    );
    const module = (await import(job.module)) as { default?: unknown };
    if (typeof module.default !== "function") {
      return {
        ok: false,
        error: `judge.ts must export a default function (ctx: JudgeContext) => { scores }; its default export is ${typeof module.default}`,
      };
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
function verificationFor(
  job: CodeJudgeJob,
  verification: VerificationStage | null,
): ((evidence: Evidence) => VerificationApi) | undefined {
  const settings = job.verification;
  if (!settings) return undefined;
  return (evidence) => {
    if ((!settings.image && !settings.environment) || !verification) {
      const fail = async (): Promise<never> => {
        throw new Error(settings.unavailable ?? "no verification image");
      };
      return { run: fail, read: fail, text: fail };
    }
    return verification.createVerificationApi({
      image: settings.image,
      environment: settings.environment,
      unavailable: settings.unavailable,
      evidence,
      limits: settings.limits,
      judgeRun: settings.judgeRun,
      directory: settings.directory,
      engine: settings.engine,
    });
  };
}

void main();
