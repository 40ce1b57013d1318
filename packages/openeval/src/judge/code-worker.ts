// The code-judge worker: runs in its own Bun process, one grading per process. It reads the job from stdin,
// opens the recording, calls the judge's default export and writes the returned JSON to the result file.
import { writeFileSync } from "node:fs";
import { createJudgeContext, openEvidence } from "../recording/index.ts";
import { JudgingError, normalizeJudgeOutput } from "./normalize.ts";
import { CodeJudgeJobSchema, type WorkerResult } from "./schema.ts";
import { toStrictJson } from "./strict-json.ts";

const job = CodeJudgeJobSchema.parse(JSON.parse(await Bun.stdin.text()));

Bun.plugin({
  name: "openeval-judge-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (/^(node|bun):/.test(args.path) || args.path.startsWith("/")) return undefined;
      return { path: Bun.resolveSync(args.path, job.resolveFrom) };
    });
  },
});

function finish(result: WorkerResult): never {
  writeFileSync(job.output, result.ok ? `{"ok":true,"output":${toStrictJson(result.output)}}\n` : `${JSON.stringify(result)}\n`);
  process.exit(result.ok ? 0 : 1);
}

async function grade(): Promise<WorkerResult> {
  try {
    await using context = await createJudgeContext(await openEvidence(job.evidence.directory, job.evidence.hash), job.run);
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

finish(await grade());
