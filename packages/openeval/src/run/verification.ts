// The run's verification image, resolved once and shared by planning (judge fingerprints) and grading.
import { reapVerificationContainers, setUpVerification, type VerificationSetup } from "../judge/index.ts";
import { mentionsVerification, type BenchmarkDefinition } from "../load/index.ts";
import type { PoolMember } from "../sandbox/index.ts";
import { homeEngine } from "./engine-pool.ts";

export interface RunVerification {
  setup: VerificationSetup | null;
  /** The image id that enters an eval's judge fingerprint (null for evals whose judge never verifies). */
  imageFor(evalId: string): string | null;
}

export async function resolveRunVerification(benchmark: BenchmarkDefinition): Promise<RunVerification> {
  const setup = await setUpVerification(benchmark.settings, benchmark.evals, homeEngine(benchmark.settings));
  const verifying = new Set(benchmark.evals.filter(mentionsVerification).map((evaluation) => evaluation.id));
  return { setup, imageFor: (evalId) => (verifying.has(evalId) ? (setup?.image ?? null) : null) };
}

/**
 * Containers left by a runner that died mid-check (their owning process is gone) are removed from every engine of
 * the pool before new work.
 */
export async function reapOrphanedVerification(
  verification: RunVerification,
  engines: readonly PoolMember[],
): Promise<void> {
  const setup = verification.setup;
  if (!setup?.image) return;
  const kind = setup.engine.engine ? { engine: setup.engine.engine } : {};
  for (const member of engines) await reapVerificationContainers({ ...kind, ...member.options }).catch(() => undefined);
}
