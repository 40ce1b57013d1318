// Resolving ctx.verification once per run: only when some judge.ts uses it, and never fatal — a missing engine
// or image becomes the reason every verification run of that run fails (a recorded judging failure).
import { mentionsVerification, type BenchmarkSettings, type EvalDefinition } from "../load/index.ts";
import type { VerificationSetup } from "./judge-source.ts";
import type { EngineOptions } from "../sandbox/index.ts";
import { DEFAULT_VERIFICATION_LIMITS, resolveVerificationImage } from "./verification/index.ts";

export async function setUpVerification(
  settings: BenchmarkSettings,
  evals: readonly EvalDefinition[],
  home: EngineOptions = {},
): Promise<VerificationSetup | null> {
  if (!evals.some(mentionsVerification)) return null;
  return resolveVerificationSetup(settings.judge.verification, home);
}

/**
 * The image (benchmark.ts `judge.verification.image`, else the pinned one) found on `home` (the engine pool's first
 * engine, where images are built), engine and limits, or why there is none.
 */
export async function resolveVerificationSetup(
  configured: BenchmarkSettings["judge"]["verification"],
  home: EngineOptions = {},
): Promise<VerificationSetup> {
  const engine = { ...home, ...(configured?.engine ? { engine: configured.engine } : {}) };
  const limits = {
    ...DEFAULT_VERIFICATION_LIMITS,
    ...(configured?.cpus ? { cpus: configured.cpus } : {}),
    ...(configured?.memoryMiB ? { memoryMiB: configured.memoryMiB } : {}),
  };
  try {
    const image = await resolveVerificationImage({
      ...engine,
      ...(configured?.image ? { image: configured.image } : {}),
    });
    return { image: image.imageId, unavailable: null, engine, limits };
  } catch (error) {
    return { image: null, unavailable: (error as Error).message, engine, limits };
  }
}
