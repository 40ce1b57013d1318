// The judge source of a task with its own verifier (a Harbor task's tests/): the verifier's reward is the score, its
// criteria `reward` or reward.json's keys. What the verifier could not give (no start, no reward, out of time) is an
// infrastructure error of the judge run — retried by `openeval rejudge failed`, never a 0.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { CriterionSource, EvalRun } from "../records/index.ts";
import { openSealedEvidence } from "../recording/index.ts";
import type { EngineOptions, TarEntry } from "../sandbox/index.ts";
import { walkTree } from "../util/tree.ts";
import type { SourceOutcome, VerificationSetup } from "./judge-source.ts";
import type { VerificationEnvironment } from "./schema.ts";
import { DEFAULT_VERIFICATION_LIMITS } from "./verification/index.ts";
import { runTaskVerifier } from "./verification/task-verifier.ts";

/** Where a verifier's scores come from, as the judge run shows it. */
export const TASK_VERIFIER_SOURCE: CriterionSource = "tests/test.sh";

export interface TaskVerifierSettings {
  timeoutMs: number;
  env: Record<string, string>;
}

export interface GradeTaskVerifierRequest {
  evalRun: EvalRun;
  runDirectory: string;
  /** The eval's folder as frozen with the run: its tests/ is what runs. */
  evalDirectory: string;
  verifier: TaskVerifierSettings;
  environment: VerificationEnvironment | null;
  verification: VerificationSetup | null;
  /** Where its container runs: the judge run's pool engine, else verification's engine. */
  engine: EngineOptions;
  judgeRun: string;
  /** The judge run's `verification/` folder. */
  directory: string;
}

export async function gradeTaskVerifier(request: GradeTaskVerifierRequest): Promise<SourceOutcome> {
  const infrastructure = (problem: string): SourceOutcome => ({
    state: "failed",
    scores: null,
    error: `Infrastructure error: ${problem}`,
    infrastructureError: true,
  });
  if (!request.evalRun.evidence) throw new Error(`eval run ${request.evalRun.id} has no recording to judge`);
  if (!request.environment)
    return infrastructure(
      "the task's environment image is not built, so its verifier cannot run; `openeval run` builds it",
    );
  const limits = { ...DEFAULT_VERIFICATION_LIMITS, ...request.verification?.limits };
  try {
    const outcome = await runTaskVerifier({
      environment: request.environment,
      evidence: await openSealedEvidence(
        join(request.runDirectory, request.evalRun.evidence.directory),
        request.evalRun.evidence.hash,
      ),
      tests: await testsEntries(join(request.evalDirectory, "tests")),
      timeoutMs: request.verifier.timeoutMs,
      env: request.verifier.env,
      limits: { ...limits, tmpMiB: limits.tmpMiB ?? DEFAULT_VERIFICATION_LIMITS.tmpMiB },
      judgeRun: request.judgeRun,
      directory: request.directory,
      engine: request.engine,
    });
    if (outcome.kind === "infrastructure") return infrastructure(`${outcome.problem} (verification ${outcome.id})`);
    if (outcome.kind === "invalid")
      return { state: "failed", scores: null, error: `Judging error: ${outcome.problem} (verification ${outcome.id})` };
    const scores = Object.fromEntries(
      Object.entries(outcome.rewards).map(([id, value]) => [id, { value, source: TASK_VERIFIER_SOURCE }]),
    );
    return { state: "completed", scores, output: { verification: outcome.id, rewards: outcome.rewards } };
  } catch (error) {
    return infrastructure(`the verifier could not run: ${(error as Error).message}`);
  }
}

/** The task's tests/ folder as it is copied to /tests (files keep their executable bit). */
async function testsEntries(directory: string): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  for (const entry of walkTree(directory)) {
    if (entry.kind === "symlink") entries.push({ type: "symlink", path: entry.path, target: entry.target });
    else
      entries.push({
        type: "file",
        path: entry.path,
        data: new Uint8Array(await readFile(entry.absolute)),
        mode: entry.mode & 0o777,
      });
  }
  return entries;
}
