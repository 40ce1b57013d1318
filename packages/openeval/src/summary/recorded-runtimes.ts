// Where a recorded run's candidates ran and in which images, as its fingerprints need them: each model's isolation
// from the benchmark's settings and the --isolation its eval runs recorded, and the image ids its runner recorded when
// it started (records/runtime-identity.ts). Nothing here asks a container engine.
import {
  mentionsVerification,
  resolveEvalIsolation,
  type BenchmarkDefinition,
  type EvalDefinition,
  type Isolation,
} from "../load/index.ts";
import type { CandidateRuntime } from "../plan/index.ts";
import type { RuntimeIdentity } from "../records/index.ts";

export interface RecordedRuntimes {
  candidateRuntime(model: string, evaluation: EvalDefinition): CandidateRuntime;
  /** The image id that enters an eval's judge fingerprint (null for evals whose judge never verifies). */
  verificationImage(evalId: string): string | null;
}

/** `isolation`: the one `--isolation` the run's eval runs recorded (null: each model's own setting applies). */
export function recordedRuntimes(
  benchmark: BenchmarkDefinition,
  isolation: Isolation | null,
  identity: RuntimeIdentity | null,
): RecordedRuntimes {
  const verifying = new Set(benchmark.evals.filter(mentionsVerification).map((evaluation) => evaluation.id));
  return {
    candidateRuntime: (model, evaluation) => {
      const backend = resolveEvalIsolation(model, evaluation, benchmark.settings, isolation ?? undefined);
      if (evaluation.environment)
        return { isolation: backend, image: identity?.environmentImages?.[evaluation.id] ?? null };
      return { isolation: backend, image: backend === "container" ? (identity?.candidateImage ?? null) : null };
    },
    verificationImage: (evalId) => (verifying.has(evalId) ? (identity?.verificationImage ?? null) : null),
  };
}

/** A run recorded before its runner kept image ids, whose fingerprints need one: said in its summary's warnings. */
export function missingIdentityWarning(
  benchmark: BenchmarkDefinition,
  models: readonly string[],
  runtimes: RecordedRuntimes,
  identity: RuntimeIdentity | null,
): string[] {
  if (identity !== null) return [];
  const needing = [
    ...(benchmark.evals.some(
      (evaluation) =>
        evaluation.environment ||
        models.some((model) => runtimes.candidateRuntime(model, evaluation).isolation === "container"),
    )
      ? ["candidates in containers"]
      : []),
    ...(benchmark.evals.some(mentionsVerification) ? ["judges that verify"] : []),
  ];
  if (needing.length === 0) return [];
  return [
    `this run recorded no image ids (it predates them): its ${needing.join(" and ")} are compared with no image, so their work is not reused; \`openeval run --run <this run> --offline\` records the images the engine holds now`,
  ];
}
