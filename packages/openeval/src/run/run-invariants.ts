// The run's invariants (benchmark.ts `invariants`), evaluated after judging: each one whose input changed since its
// last evaluation — the summary or the workspaces it reads, the run's active eval runs and judgments (a rejudge, a
// retry), the benchmark files it runs with, or its own declaration — runs again in the verification sandbox, and its
// result is appended to the store, sealed. Nothing changed: nothing runs. How it runs and what it sees: docs/guide/invariants.md.
import {
  evaluateInvariant,
  resolveVerificationSetup,
  benchmarkEntries,
  type InvariantInput,
  type VerificationSetup,
} from "../judge/index.ts";
import { invariantDefinition, type BenchmarkDefinition, type Invariant } from "../load/index.ts";
import {
  latestInvariantEvaluations,
  newInvariantEvaluationId,
  readInvariantEvaluations,
  recordInvariantEvaluation,
  type InvariantEvaluation,
  type ResultsStore,
} from "../records/index.ts";
import { describeStanding, describeVerdict, readVerdictSettings } from "../results/index.ts";
import { summarizeRecordedRun, type CheckedRecords, type RunnerListener } from "../summary/index.ts";
import { fingerprint, sha256 } from "../util/hash.ts";
import { homeEngine } from "./engine-pool.ts";

export interface RunInvariantsOptions {
  benchmark: BenchmarkDefinition;
  store: ResultsStore;
  runId: string;
  /** The run's verification setup when its judges resolved one; resolved here otherwise. */
  verification: VerificationSetup | null;
  /** The run's checked records as just read. */
  records: CheckedRecords;
  /** `--offline`: invariants are recorded as not evaluated. */
  offline: boolean;
  emit: RunnerListener;
}

/** What the invariants read this time, laid out once for all of them. */
interface RunInputs {
  summary: string;
  /** The active eval runs and their active judgments, by id: any change to either evaluates every invariant again. */
  records: string[];
  evalRuns: { evalId: string; evalRunId: string; evidence: { directory: string; hash: string } }[];
  benchmark: ReturnType<typeof benchmarkEntries>;
}

export async function runInvariants(options: RunInvariantsOptions): Promise<void> {
  const invariants = options.benchmark.settings.invariants ?? [];
  if (invariants.length === 0) return;
  const inputs = await readRunInputs(options);
  const latest = latestInvariantEvaluations(readInvariantEvaluations(options.store).evaluations);
  let verification = options.verification?.image ? options.verification : null;
  for (const invariant of invariants) {
    const definition = invariantDefinition(invariant);
    const key = inputKey(invariant, inputs);
    const last = latest.get(invariant.id);
    const current = last?.definition === definition && last.inputKey === key;
    // It ran over exactly this: its result stands. One that never ran is tried again (an engine may be there now).
    if (current && last.ran) continue;
    const base = { invariant, definition, key, inputs };
    if (options.offline) {
      if (!(current && last.status === "not-evaluated"))
        record(
          options,
          notRun(
            base,
            "not-evaluated",
            "--offline: invariants are not run offline; `openeval run` without --offline evaluates them",
          ),
        );
      continue;
    }
    const evaluation = inputs.benchmark.problem
      ? notRun(base, "unevaluable", inputs.benchmark.problem)
      : await evaluate(base, options, (verification ??= await setUpVerification(options)));
    // The same reason for not running as last time, over the same input: nothing new to record.
    if (
      !evaluation.ran &&
      current &&
      !last.ran &&
      last.status === evaluation.status &&
      last.reason === evaluation.reason
    )
      continue;
    record(options, evaluation);
  }
}

/** The verification image, engine and limits, as the run's judges would have them. */
function setUpVerification(options: RunInvariantsOptions): Promise<VerificationSetup> {
  return resolveVerificationSetup(
    options.benchmark.settings.judge.verification,
    homeEngine(options.benchmark.settings),
  );
}

async function evaluate(
  base: EvaluationBase,
  options: RunInvariantsOptions,
  verification: VerificationSetup,
): Promise<InvariantEvaluation> {
  const startedAt = new Date();
  const outcome = await evaluateInvariant({
    invariant: base.invariant,
    input: inputOf(base.invariant, base.inputs, options.store.directory),
    benchmark: base.inputs.benchmark.entries,
    verification,
    runId: options.runId,
  });
  return { ...evaluationBase(base), ...outcome, imageId: verification.image, startedAt: startedAt.toISOString() };
}

/**
 * The summary as `openeval report --json` gives it for the whole run, with the recorded verdict settings but without
 * the invariants contributor (it cannot depend on itself); and the eval runs whose final workspaces are there to read.
 */
async function readRunInputs(options: RunInvariantsOptions): Promise<RunInputs> {
  const recorded = readVerdictSettings(options.store);
  const { summary, slots } = await summarizeRecordedRun(options.store, options.benchmark, {
    records: options.records,
    withSlots: true,
    selection: { ...recorded?.selection, noInvariants: true },
  });
  // Nor the invariants' own results: what they read must not change because they ran.
  const { invariants: _results, ...read } = summary;
  const verdictWords = describeVerdict(summary.verdict, summary.complete);
  const text = `${JSON.stringify({ type: "summary", ...read, verdictWords }, null, 2)}\n`;
  const evalRuns = slots.flatMap((slot) =>
    slot.evalRun?.evidence
      ? [{ evalId: slot.evalId, evalRunId: slot.evalRun.id, evidence: slot.evalRun.evidence }]
      : [],
  );
  const records = slots.map((slot) => `${slot.evalRun?.id ?? "-"}/${slot.judgeRun?.id ?? "-"}`).sort();
  return { summary: text, records, evalRuns, benchmark: benchmarkEntries(options.benchmark.directory) };
}

function inputKey(invariant: Invariant, inputs: RunInputs): string {
  const read =
    invariant.over === "summary"
      ? { summary: sha256(inputs.summary) }
      : { evalRuns: inputs.evalRuns.map((evalRun) => [evalRun.evalRunId, evalRun.evidence.hash]) };
  return fingerprint({ ...read, records: inputs.records, benchmark: inputs.benchmark.sha256 });
}

function inputOf(invariant: Invariant, inputs: RunInputs, runDirectory: string): InvariantInput {
  return invariant.over === "summary"
    ? { over: "summary", summary: inputs.summary }
    : { over: "workspaces", runDirectory, evalRuns: inputs.evalRuns };
}

interface EvaluationBase {
  invariant: Invariant;
  definition: string;
  key: string;
  inputs: RunInputs;
}

function evaluationBase(base: EvaluationBase) {
  const { invariant, inputs } = base;
  return {
    format: "openeval.invariant-evaluation" as const,
    version: 1 as const,
    id: newInvariantEvaluationId(),
    invariant: invariant.id,
    definition: base.definition,
    argv: invariant.argv,
    over: invariant.over,
    timeoutMs: invariant.timeoutMs,
    inputKey: base.key,
    input: {
      ...(invariant.over === "summary"
        ? { summarySha256: sha256(inputs.summary) }
        : { evalRuns: inputs.evalRuns.map(({ evalId, evalRunId }) => ({ evalId, evalRunId })) }),
      benchmarkSha256: inputs.benchmark.sha256,
    },
  };
}

function notRun(base: EvaluationBase, status: "not-evaluated" | "unevaluable", reason: string): InvariantEvaluation {
  return {
    ...evaluationBase(base),
    status,
    reason,
    ran: false,
    exitCode: null,
    stdout: "",
    stderr: "",
    logsTruncated: false,
    imageId: null,
    startedAt: new Date().toISOString(),
    elapsedMs: 0,
  };
}

function record(options: RunInvariantsOptions, evaluation: InvariantEvaluation): void {
  recordInvariantEvaluation(options.store, evaluation);
  options.emit({
    type: "notice",
    message: `Invariant ${evaluation.invariant}: ${describeStanding(evaluation)}`,
  });
}
