// The code-judge worker protocol: the job the host writes on the worker's stdin and the result file it reads.
import * as z from "zod";
import { EvalRunSchema } from "../results/index.ts";

export const CodeJudgeJobSchema = z.object({
  /** The frozen bundle to import, its package imports pinned to files (link-imports.ts). */
  module: z.string(),
  output: z.string(),
  /** The eval folder: the judge's working directory (a warm worker starts before its job is known). */
  cwd: z.string(),
  evidence: z.object({ directory: z.string(), hash: z.string() }),
  run: EvalRunSchema.nullable(),
  declaredCriteria: z.array(z.string()).nullable(),
  /** How ctx.verification runs: the pinned image (or why there is none), engine, limits, where receipts go. */
  verification: z
    .object({
      image: z.string().nullable(),
      unavailable: z.string().nullable(),
      engine: z.object({ engine: z.enum(["docker", "podman"]).optional(), socketPath: z.string().optional() }),
      limits: z.object({ cpus: z.number(), memoryMiB: z.number(), pids: z.number(), logBytes: z.number(), artifactBytes: z.number(), tmpMiB: z.number().optional() }),
      judgeRun: z.string(),
      directory: z.string(),
    })
    .nullable(),
});

export const WorkerResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), output: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

export type CodeJudgeJob = z.infer<typeof CodeJudgeJobSchema>;
export type WorkerResult = z.infer<typeof WorkerResultSchema>;
