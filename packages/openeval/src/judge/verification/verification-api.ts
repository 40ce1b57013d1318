// `ctx.verification` of JudgeContext: run(), read() and text() bound to one recording, one pinned image and one
// judge run's folder, so judge.ts passes only its request.
import type { EngineOptions } from "../../sandbox/index.ts";
import { readVerificationArtifact } from "./artifacts.ts";
import { runVerification } from "./run-verification.ts";
import type {
  VerificationApi,
  VerificationLimits,
  VerificationRequest,
  VerificationResult,
} from "../../recording/index.ts";
import type { SnapshotReader } from "./snapshot-archive.ts";
import type { VerificationEnvironment } from "../schema.ts";

export interface VerificationApiOptions {
  /** The pinned image id; resolve it once per judge run (resolveVerificationImage) so every check uses the same. */
  image: string | null;
  /** Why there is no verification image (requests for it fail with this). */
  unavailable?: string | null;
  /** The eval's environment image, for `image: "environment"` requests. */
  environment?: VerificationEnvironment | null;
  evidence: SnapshotReader;
  limits: VerificationLimits;
  judgeRun: string;
  /** The judge run's `verification/` folder. */
  directory: string;
  engine?: EngineOptions;
}

/** The default limits (benchmark.ts's judge.verification may override cpus and memoryMiB). */
export const DEFAULT_VERIFICATION_LIMITS = {
  cpus: 2,
  memoryMiB: 4096,
  pids: 512,
  logBytes: 1_048_576,
  artifactBytes: 16_777_216,
  tmpMiB: 256,
} as const satisfies VerificationLimits;

/**
 * @example
 * const verification = createVerificationApi({ image, evidence, limits: DEFAULT_VERIFICATION_LIMITS, judgeRun, directory });
 * const result = await verification.run({ revision: "final", timeoutMs: 60_000, commands: [["bun", "test"]] });
 */
export function createVerificationApi(options: VerificationApiOptions): VerificationApi {
  return {
    run: (request) =>
      runVerification({
        image: options.image,
        environment: options.environment ?? null,
        unavailable: options.unavailable ?? null,
        evidence: options.evidence,
        request,
        limits: options.limits,
        labels: { judgeRun: options.judgeRun },
        directory: options.directory,
        engine: options.engine,
      }),
    read: (result, path) => readVerificationArtifact(result, path, options.directory),
    text: async (result, path) =>
      new TextDecoder().decode(await readVerificationArtifact(result, path, options.directory)),
  };
}
