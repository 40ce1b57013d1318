// The code-judge worker protocol: the job the host writes on the worker's stdin and the result file it reads.
import * as z from "zod";
import type { JudgeCase, VerificationLimits } from "../recording/index.ts";
import type { EvalRun } from "../records/index.ts";
import type { EngineOptions } from "../sandbox/index.ts";

/**
 * The job the runner writes on a worker's stdin. Not re-validated in the worker: the runner builds it from values it
 * has already validated, and parsing it (the eval run's schema with zod's cycle check) would be a large part of a
 * worker's start. The result file comes back from judge code, so that one is parsed (WorkerResultSchema).
 */
export interface CodeJudgeJob {
  /** The frozen bundle to import, its package imports pinned to files (link-imports.ts). */
  module: string;
  output: string;
  /** The eval folder: the judge's working directory (a warm worker starts before its job is known). */
  cwd: string;
  evidence: { directory: string; hash: string };
  run: EvalRun | null;
  /** ctx.case: the case the eval run was for; null for an eval without cases. */
  case: JudgeCase | null;
  declaredCriteria: string[] | null;
  /** How ctx.verification runs: the pinned image (or why there is none), engine, limits, where receipts go. */
  verification: {
    image: string | null;
    unavailable: string | null;
    engine: Pick<EngineOptions, "engine" | "socketPath">;
    limits: VerificationLimits;
    judgeRun: string;
    directory: string;
    /** The eval's environment image, for `image: "environment"` requests; null when the eval has none. */
    environment: VerificationEnvironment | null;
  } | null;
}

/** The eval's environment image and its working directory, where verification restores the snapshot. */
export interface VerificationEnvironment {
  image: string;
  workdir: string;
}

export const WorkerResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), output: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

export type WorkerResult = z.infer<typeof WorkerResultSchema>;
