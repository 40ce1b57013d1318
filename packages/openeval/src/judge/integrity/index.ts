// The integrity check of an eval run's recording (check-integrity.ts), run with every grading.
import { join } from "node:path";
import type { EvalDefinition } from "../../load/index.ts";
import type { EvalRun, IntegrityFinding } from "../../records/index.ts";
import { openSealedEvidence } from "../../recording/index.ts";
import { checkIntegrity } from "./check-integrity.ts";

export { TEST_CONFIG } from "./check-integrity.ts";

/** The findings of an eval run recorded under `runDirectory`; none for a run without a recording. */
export async function integrityFindingsOf(
  runDirectory: string,
  evalRun: EvalRun,
  evaluation: Pick<EvalDefinition, "integrity">,
): Promise<IntegrityFinding[]> {
  if (!evalRun.evidence) return [];
  const evidence = await openSealedEvidence(join(runDirectory, evalRun.evidence.directory), evalRun.evidence.hash);
  return checkIntegrity(evidence, evalRun, evaluation.integrity);
}
