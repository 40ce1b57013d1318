// The verification contract: what a judge's `ctx.verification` takes and gives — the request, the
// limits, the result, and the receipt kept with the judge run — and the API itself. It lives with JudgeContext,
// which exposes it; the judge stage implements it in a container (judge/verification/). Types come from the schemas.
import * as z from "zod";

/** What judge.ts passes to `ctx.verification.run()`. Paths are relative: `cwd` and `artifacts` to the
 * restored workspace, `files` to /verification (outside the workspace). */
export const VerificationRequestSchema = z.strictObject({
  revision: z.enum(["final", "initial"]).default("final"),
  /** `environment`: a fresh container of the eval's own environment image, the snapshot at its working directory. */
  image: z.enum(["verification", "environment"]).default("verification"),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(12 * 3_600_000),
  cwd: z.string().min(1).optional(),
  commands: z
    .array(z.array(z.string()).min(1, "an argv needs at least the program"))
    .min(1, "give at least one command"),
  files: z.record(z.string(), z.string()).optional(),
  artifacts: z.array(z.string()).optional(),
});

export const VerificationLimitsSchema = z.strictObject({
  cpus: z.number().positive().max(256),
  memoryMiB: z.number().int().min(64),
  pids: z.number().int().min(16),
  /** Kept of stdout and of stderr each; the rest is counted and dropped (logsTruncated). */
  logBytes: z.number().int().positive(),
  /** Largest artifact copied out; a larger one is refused and reported, never truncated. */
  artifactBytes: z.number().int().positive(),
  /** Size of the writable /tmp (tmpfs, counted against memory). */
  tmpMiB: z.number().int().positive().default(256),
});

export const CommandResultSchema = z.object({
  argv: z.array(z.string()),
  /** null when the command was killed at the deadline. */
  exitCode: z.number().int().nullable(),
  elapsedMs: z.number().nonnegative(),
});

export const ArtifactSchema = z.object({ path: z.string(), bytes: z.number().int().nonnegative(), sha256: z.string() });

export const RefusedArtifactSchema = z.object({
  path: z.string(),
  reason: z.string(),
  bytes: z.number().int().nonnegative().nullable(),
});

export const VerificationResultSchema = z.object({
  id: z.string(),
  state: z.enum(["completed", "timed_out"]),
  /** The first non-zero exit code, 0 when every command passed, null when the run timed out. */
  exitCode: z.number().int().nullable(),
  commands: z.array(CommandResultSchema),
  stdout: z.string(),
  stderr: z.string(),
  logsTruncated: z.boolean(),
  artifacts: z.array(ArtifactSchema),
  missingArtifacts: z.array(z.string()),
  /** Artifacts that exist but were not copied out (over the size cap, not a regular file). */
  refusedArtifacts: z.array(RefusedArtifactSchema),
});

/** `verification/<id>/receipt.json` of a judge run: the result plus what produced it. */
export const VerificationReceiptSchema = z.object({
  format: z.literal("openeval.verification-receipt"),
  version: z.literal(1),
  result: VerificationResultSchema,
  imageId: z.string(),
  request: VerificationRequestSchema,
  limits: VerificationLimitsSchema,
  startedAt: z.string(),
  elapsedMs: z.number().nonnegative(),
});

export type VerificationRequest = z.input<typeof VerificationRequestSchema>;
export type ParsedVerificationRequest = z.infer<typeof VerificationRequestSchema>;
export type VerificationLimits = z.input<typeof VerificationLimitsSchema>;
export type ParsedVerificationLimits = z.infer<typeof VerificationLimitsSchema>;
export type CommandResult = z.infer<typeof CommandResultSchema>;
export type VerificationArtifact = z.infer<typeof ArtifactSchema>;
export type RefusedArtifact = z.infer<typeof RefusedArtifactSchema>;
export type VerificationResult = z.infer<typeof VerificationResultSchema>;
export type VerificationReceipt = z.infer<typeof VerificationReceiptSchema>;

/** `ctx.verification`: sandboxed commands over a snapshot of the recorded workspace. */
export interface VerificationApi {
  /** Runs argv commands (no shell) over a workspace snapshot in a locked-down container. */
  run(request: VerificationRequest): Promise<VerificationResult>;
  /** An artifact of a finished run, after checking its sha256. */
  read(result: VerificationResult, path: string): Promise<Uint8Array>;
  text(result: VerificationResult, path: string): Promise<string>;
}
