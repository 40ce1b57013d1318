// Each declared invariant's standing as the run recorded it: its latest evaluation, when that evaluation ran its
// current declaration; otherwise not evaluated. Read from the store only: reports and the viewer never run a command.
import { invariantDefinition, InvariantsSchema, type Invariant, type InvariantOver } from "../load/index.ts";
import {
  latestInvariantEvaluations,
  readInvariantEvaluations,
  type InvariantEvaluation,
  type IntegrityProblem,
  type InvariantStatus,
  type ResultsStore,
} from "../records/index.ts";
import type { InvariantsVerdictInput } from "../results/index.ts";
import { describeZodIssues } from "../util/zod-issues.ts";

/** One invariant as every report shows it: the declaration, and what its recorded evaluation found. */
export interface InvariantReport {
  id: string;
  description: string | null;
  argv: string[];
  over: InvariantOver;
  status: InvariantStatus;
  reason: string | null;
  exitCode: number | null;
  /** The evaluation's bounded output; empty when it did not run. */
  stdout: string;
  stderr: string;
  logsTruncated: boolean;
  elapsedMs: number | null;
  /** The recorded evaluation this comes from (null: none for this declaration). */
  evaluation: { id: string; startedAt: string; input: InvariantEvaluation["input"] } | null;
}

/**
 * The manifest (benchmark.ts `invariants`, as the verdict settings hold it) against the run's recorded evaluations.
 * `manifest` undefined: none declared.
 */
export function readInvariantStandings(
  store: ResultsStore,
  manifest: readonly unknown[] | undefined,
): { reports: InvariantReport[]; verdict: InvariantsVerdictInput; problems: IntegrityProblem[] } {
  const parsed = InvariantsSchema.safeParse(manifest ?? []);
  if (!parsed.success)
    return {
      reports: [],
      verdict: { standings: [], manifestProblem: describeZodIssues(parsed.error).join("; ") },
      problems: [],
    };
  if (parsed.data.length === 0) return { reports: [], verdict: { standings: [], manifestProblem: null }, problems: [] };
  const recorded = readInvariantEvaluations(store);
  const latest = latestInvariantEvaluations(recorded.evaluations);
  const reports = parsed.data.map((invariant) =>
    recorded.tampered.has(invariant.id) ? tamperedReport(invariant) : reportOf(invariant, latest.get(invariant.id)),
  );
  return {
    problems: recorded.problems,
    reports,
    verdict: {
      standings: reports.map(({ id, status, exitCode, reason }) => ({ id, status, exitCode, reason })),
      manifestProblem: null,
    },
  };
}

/** A recorded evaluation that fails its check counts as none that could be trusted: unevaluable, never an older pass. */
function tamperedReport(invariant: Invariant): InvariantReport {
  return {
    ...reportOf(invariant, undefined),
    status: "unevaluable",
    reason: "a recorded evaluation of it fails its integrity check (`openeval verify` names it)",
  };
}

function reportOf(invariant: Invariant, evaluation: InvariantEvaluation | undefined): InvariantReport {
  const declared = {
    id: invariant.id,
    description: invariant.description ?? null,
    argv: invariant.argv,
    over: invariant.over,
  };
  if (!evaluation || evaluation.definition !== invariantDefinition(invariant))
    return {
      ...declared,
      status: "not-evaluated",
      reason: evaluation
        ? "its declaration changed since it was last evaluated; the next `openeval run` evaluates it"
        : "the run has no evaluation of it yet; `openeval run` evaluates it after judging",
      exitCode: null,
      stdout: "",
      stderr: "",
      logsTruncated: false,
      elapsedMs: null,
      evaluation: null,
    };
  return {
    ...declared,
    status: evaluation.status,
    reason: evaluation.reason,
    exitCode: evaluation.exitCode,
    stdout: evaluation.stdout,
    stderr: evaluation.stderr,
    logsTruncated: evaluation.logsTruncated,
    elapsedMs: evaluation.elapsedMs,
    evaluation: { id: evaluation.id, startedAt: evaluation.startedAt, input: evaluation.input },
  };
}
