// runBenchmark(): recover, plan, then run all candidate and judge work through one queue, recording
// everything in the run's store, and summarize. It emits lifecycle events and never prints.
import { availableParallelism } from "node:os";
import { basename } from "node:path";
import type { ControlServer } from "@openeval/control-model";
import {
  checkModelOverride,
  CURRENT_VARIANT_NAME,
  earlyStopPolicy,
  judgePanelOf,
  loadBenchmark,
  type BenchmarkDefinition,
} from "../load/index.ts";
import {
  modelsInScope,
  reapOrphanedCandidates,
  resolveRunIsolation,
  usesContainers,
  withBuiltEnvironments,
} from "./candidate-isolation.ts";
import {
  insecureEngineWarnings,
  openRunEngines,
  reapRunSandboxes,
  runEngineMembers,
  runImages,
} from "./engine-pool.ts";
import {
  checkScope,
  plannedModels,
  plannedVariants,
  checkRepeatedJudging,
  resolveExplicitRequests,
  type PlanScope,
} from "../plan/index.ts";
import { chooseRunDirectory, recordRedactions, toRedactionEntries } from "../records/index.ts";
import { findKnownSecrets } from "../opencode/index.ts";
import type { BenchmarkRun } from "../records/index.ts";
import {
  readRunModels,
  recordModelsAdded,
  slotId,
  recordRuntimeIdentity,
  type ResultsStore,
  type RunModels,
} from "../records/index.ts";
import { recordVerdictSettings, verdictSettingsOf } from "../results/index.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import { createProgressLog } from "./progress-log.ts";
import { HEARTBEAT_INTERVAL_MS, openRun, recoverRun } from "./recover.ts";
import { createPreflight } from "./preflight.ts";
import { startControls } from "./start-controls.ts";
import { rubricJudgesFor, runCandidateWork, runJudgeWork, type SlotWork, type WorkContext } from "./slot-work.ts";
import { admitCandidates, createProviderLimiter } from "./provider-limiter.ts";
import { reapOrphanedVerification, resolveRunVerification } from "./verification.ts";
import { runWorkQueue } from "./work-queue.ts";
import { runInvariants } from "./run-invariants.ts";
import { runOptionsOf } from "./run-options.ts";
import { checkFrozenBeforeUse, freezeInputs, programsRunBy } from "./freeze-inputs.ts";
import { stopCodeWorkers } from "../judge/index.ts";
import {
  benchmarkVersion,
  compareSources,
  describeInputChanges,
  describeIntegrityProblems,
  hashSources,
  INPUTS_CHANGED_EVENT,
  INPUTS_TAMPERED_EVENT,
  readCheckedRecords,
  readCheckedRecordsSince,
  planAdaptively,
  recordSummary,
  summarizeRun,
  type CheckedRecords,
  type InputChange,
  type RunnerListener,
  type RunSummary,
  type SummaryOptions,
} from "../summary/index.ts";
import { isControlModel } from "../util/control-model.ts";
import { collectAfterLargeRead } from "../util/collect-garbage.ts";

export interface RunBenchmarkOptions {
  /** A benchmark folder, or one already loaded. */
  benchmark: string | BenchmarkDefinition;
  /** Resume this run directory. */
  run?: string;
  /** Start a new run instead of resuming the latest. */
  new?: boolean;
  scope?: PlanScope;
  /** Parallel work items; default: benchmark.ts `concurrency`, else what the machine can hold. */
  concurrency?: number;
  /** Verdict contributor selection from the command line (--gate, --only, --no-llm-judge). */
  selection?: SummaryOptions["selection"];
  onEvent?: RunnerListener;
  signal?: AbortSignal;
}

/** About one OpenCode session per core: each keeps a core busy while it starts and runs tools. */
export function defaultConcurrency(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Runs (or resumes) a benchmark and returns its summary. OpenEval's `(path, options)` form is accepted too.
 * @example
 * const summary = await runBenchmark({ benchmark: ".", onEvent: (event) => console.error(event.type) });
 * const same = await runBenchmark(".", { onEvent: (event) => console.error(event.type) });
 */
export async function runBenchmark(options: RunBenchmarkOptions): Promise<RunSummary>;
export async function runBenchmark(
  benchmark: string | BenchmarkDefinition,
  options?: Omit<RunBenchmarkOptions, "benchmark">,
): Promise<RunSummary>;
export async function runBenchmark(
  first: string | BenchmarkDefinition | RunBenchmarkOptions,
  second?: Omit<RunBenchmarkOptions, "benchmark">,
): Promise<RunSummary> {
  const options = runOptionsOf(first, second);
  // Stamped before it is loaded: the summary recorded at the end reuses this load only if no file has changed since.
  const stamp = typeof options.benchmark === "string" ? benchmarkVersion(options.benchmark) : null;
  const benchmark = typeof options.benchmark === "string" ? await loadBenchmark(options.benchmark) : options.benchmark;
  const scope = options.scope ?? {};
  checkModelRefs(benchmark, scope);
  const expected = chooseRunDirectory(benchmark.directory, { run: options.run, new: options.new });
  // A new run is checked before its directory exists; a recorded one once its models are read (--only-model may name them).
  if (expected.created) checkScope(benchmark, scope);
  // Before any model call a model that needs a container engine or image it cannot have stops here: for a new run
  // before its directory exists; on a recorded run after retry/rejudge ids are checked, so a typo is named first.
  const resolveIsolation = (runModels?: RunModels) =>
    resolveRunIsolation(benchmark, modelsInScope(benchmark, scope, runModels), scope, {
      strict: !scope.offline,
    });
  const checkedIsolation = expected.created ? await resolveIsolation() : null;
  // Chosen again under the run-creation lock: a runner started meanwhile may have created the run.
  const { choice, store } = openRun(benchmark.directory, { run: options.run, new: options.new });
  const isolationOfNewRun = choice.created ? checkedIsolation : null;
  const concurrency = options.concurrency ?? benchmark.settings.concurrency ?? defaultConcurrency();
  const progress = createProgressLog(store, { concurrency, maxCostUSD: scope.maxCostUSD ?? null });
  const emit: RunnerListener = (event) => {
    progress(event);
    options.onEvent?.(event);
  };
  const runId = basename(choice.directory);
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  try {
    await recoverRun(store);
    heartbeat = setInterval(() => store.beat(), HEARTBEAT_INTERVAL_MS);
    const recordedModels = choice.created ? undefined : readRunModels(store);
    if (recordedModels) checkScope(benchmark, scope, recordedModels);
    const requests = resolveExplicitRequests(() => store.evalRuns(), scope);
    // Step: the environments of evals in scope that are not built yet are built now (not offline: that waits).
    const resolvedIsolation = isolationOfNewRun ?? (await resolveIsolation(recordedModels));
    const isolation = scope.offline
      ? resolvedIsolation
      : await withBuiltEnvironments(benchmark, scope, resolvedIsolation, choice.directory, emit);
    // Step: the run's models are benchmark.ts's, the run's own and --model's; models new to a recorded run join it.
    const models = plannedModels(benchmark, scope, recordedModels);
    if (recordedModels)
      recordModelsAdded(
        store,
        models.filter((model) => !recordedModels.active.includes(model)),
      );
    else store.writeRun(describeRun(runId, benchmark, models, scope));
    const retired = benchmark.settings.models.filter(
      (model) => recordedModels?.retired.includes(model) && !models.includes(model),
    );
    if (retired.length > 0)
      emit({
        type: "notice",
        message: `${retired.join(", ")} of benchmark.ts ${retired.length === 1 ? "is" : "are"} retired from this run (remove-models): not run or scored; \`openeval add-models ${choice.directory} --model <ref>\` brings ${retired.length === 1 ? "it" : "them"} back`,
      });
    // Step: every secret this runner can see is redacted from what it records; the list (hashes only) is kept for export.
    const secrets = await findKnownSecrets(process.env, undefined, benchmark.settings.candidate.providers);
    await recordRedactions(choice.directory, toRedactionEntries(secrets));
    const verification = await resolveRunVerification(benchmark);
    // Step: the image ids this plan fingerprints with are recorded, so that reading the run later asks no engine.
    recordRuntimeIdentity(store, {
      candidateImage: isolation.candidateImage,
      verificationImage: verification.setup?.image ?? undefined,
      // Only a run with environments records them (an empty map would read as a change of identity).
      environmentImages:
        Object.keys(isolation.environments.images).length > 0 ? isolation.environments.images : undefined,
    });
    // Step: the engines work is placed on; what dead runners left on each is removed before new work.
    const members = usesContainers(isolation) || verification.setup?.image ? runEngineMembers(benchmark.settings) : [];
    for (const message of insecureEngineWarnings(members)) emit({ type: "notice", message });
    await reapOrphanedVerification(verification, members);
    await reapOrphanedCandidates(isolation, members);
    let records = readCheckedRecords(store);
    for (const message of describeIntegrityProblems(records.integrity)) emit({ type: "notice", message });
    const planRound = async (roundScope: PlanScope) =>
      (await planAdaptively(benchmark, records, roundScope, verification.imageFor, isolation.runtimeFor)).plan;
    const plan = await planRound({ ...scope, ...requests });
    checkRepeatedJudging(plan.slots, { ...scope, ...requests });
    emit({
      type: "run.started",
      runId,
      directory: choice.directory,
      resumed: !choice.created,
      slots: plan.slots,
      estimateUSD: plan.estimate.usd,
    });

    const monitored = monitoredEvals(benchmark, concurrency, scope.finalOnly ?? false, emit);
    const workOf = (planned: typeof plan): SlotWork[] =>
      planned.slots
        .filter((slot) => slot.action === "candidate" || slot.action === "judge")
        .map((slot) => ({
          kind: slot.action === "candidate" ? "candidate" : "judge",
          slot,
          evalRun: slot.evalRun,
          monitored:
            slot.action === "candidate" &&
            monitored.has(slot.evalId) &&
            earlyStopPolicy(
              benchmark.evals.find((evaluation) => evaluation.id === slot.evalId)?.settings.earlyStop,
              slot.model,
            ) !== null,
        }));
    let work = workOf(plan);
    // Step: freeze what candidates and judges use, and hash what they must not change, before any candidate starts.
    const sources = work.length > 0 ? await hashSources(benchmark.directory) : null;
    const {
      benchmark: frozenBenchmark,
      frozen,
      codeWorker,
      judgeTools,
      programs,
    } = work.length > 0
      ? await freezeInputs(benchmark, choice.directory, secrets)
      : { benchmark, frozen: new Map(), codeWorker: null, judgeTools: null, programs: new Map() };
    const reportChanges = (changes: InputChange[]) => {
      if (changes.length === 0) return;
      store.appendEvent(INPUTS_CHANGED_EVENT, { changes });
      emit({
        type: "notice",
        message: `Changed while this run's candidates ran (graded with the frozen inputs): ${describeInputChanges(changes)}`,
      });
    };
    const restoreInputs = async (evalId: string, use: "candidate" | "judge") => {
      const evaluation = frozenBenchmark.evals.find((each) => each.id === evalId)!;
      // Only the programs this work runs are hashed: checking runs before every job.
      const used =
        use === "judge"
          ? programsRunBy(programs, choice.directory, [
              evaluation.code ? codeWorker : null,
              evaluation.rubric ? judgeTools : null,
            ])
          : new Map();
      const { check, problems, usable } = await checkFrozenBeforeUse(frozen.get(evalId)!, choice.directory, used);
      reportChanges(
        check.added.map((path) => ({ scope: "frozen" as const, path: `${evalId}/${path}`, change: "added" as const })),
      );
      if (problems.length > 0) store.appendEvent(INPUTS_TAMPERED_EVENT, { problems });
      for (const problem of problems) emit({ type: "notice", message: `Integrity error: ${problem.message}` });
      return usable;
    };
    const scriptedJudge = judgePanelOf(benchmark.settings).models.some(isControlModel);
    const controls: ControlServer | null = work.some((item) => isControlModel(item.slot.model) || scriptedJudge)
      ? await startControls(benchmark)
      : null;
    const engines =
      members.length > 0 && work.length > 0
        ? openRunEngines(members, {
            images: () =>
              runImages({
                candidateImage: isolation.candidateImage,
                verificationImage: verification.setup?.image,
                environmentImages: isolation.environments.images,
              }),
            onChange: (states) => emit({ type: "engines.changed", engines: states }),
            onCarry: (message) => emit({ type: "notice", message }),
          })
        : null;
    // Each provider's share of the candidate lanes, lowered by its 429 and 503 answers and raised by its answers.
    const providers = createProviderLimiter({
      max: concurrency,
      onChange: (change) => emit({ type: "provider.backoff", ...change }),
    });
    const context: WorkContext = {
      benchmark: frozenBenchmark,
      restoreInputs,
      store,
      runId,
      controls,
      emit,
      signal: options.signal,
      fresh: new Set(),
      secrets: secrets.map((secret) => secret.value),
      codeWorker,
      ...rubricJudgesFor(controls, judgeTools),
      verification: verification.setup,
      isolation,
      preflight: createPreflight(benchmark),
      engines,
      providers,
    };
    try {
      for (;;) {
        await runWorkQueue(
          work,
          concurrency,
          (item, enqueue) =>
            item.kind === "candidate"
              ? runCandidateWork(item, context, enqueue)
              : item.kind === "check"
                ? item.check!()
                : runJudgeWork(item, context),
          {
            signal: options.signal,
            onChange: (state) => emit({ type: "queue.changed", ...state }),
            admission: admitCandidates(providers),
          },
        );
        // Adaptive repetitions: the next round is what the comparisons still need (retry and rejudge do only theirs).
        if (!benchmark.settings.adaptive || scope.explicitOnly || options.signal?.aborted) break;
        records = readCheckedRecordsSince(store, records);
        const done = new Set(work.map((item) => slotId(item.slot)));
        const next = workOf(await planRound({ ...scope, fresh: false }));
        // Work that did not move (inputs it could not use) is not tried again in a loop.
        if (next.length === 0 || next.every((item) => done.has(slotId(item.slot)))) break;
        emit({ type: "notice", message: describeRound(next) });
        work = next;
      }
    } finally {
      await controls?.close();
      if (codeWorker) await stopCodeWorkers(codeWorker);
      engines?.close();
      if (engines) await reapRunSandboxes(engines, runId);
    }
    if (sources) reportChanges(compareSources(sources, await hashSources(benchmark.directory)));
    // The verdict is decided with these settings: recorded so that readResults and the viewer decide it the same way later.
    recordVerdictSettings(store, verdictSettingsOf(benchmark.settings, options.selection));
    const current = readCheckedRecordsSince(store, records);
    // Step: the run's invariants, over what it holds now; before the summaries, which read their results.
    if (!options.signal?.aborted)
      await runInvariants({
        benchmark,
        store,
        runId,
        verification: verification.setup,
        records: current,
        offline: scope.offline ?? false,
        emit,
      });
    // Step: record the summary a reader would make now (the whole run, its recorded settings) for the viewer.
    await recordSummaryForViewer(store, current, stamp === null ? null : { benchmark, stamp }, emit);
    const summary = await summarizeRun(benchmark, store, scope, runId, {
      fresh: context.fresh,
      selection: options.selection,
      verificationImage: verification.imageFor,
      candidateRuntime: isolation.runtimeFor,
      records: current,
    });
    emit({ type: "run.finished", runId, directory: choice.directory, summary });
    return summary;
  } finally {
    clearInterval(heartbeat);
    if (heartbeat) store.release();
    store.close();
  }
}

/**
 * The summary a reader would make now, recorded for the viewer's first leaderboard (recorded-summary.ts); a failure is a
 * notice, as it only costs the viewer the computation. Made before this invocation's own summary, and on a large run
 * the heap is collected between the two, since made one after the other their garbage would add up to the runner's
 * peak (bench section 9 measures it).
 */
async function recordSummaryForViewer(
  store: ResultsStore,
  records: CheckedRecords,
  loaded: { benchmark: BenchmarkDefinition; stamp: string } | null,
  emit: RunnerListener,
): Promise<void> {
  try {
    await recordSummary(store, { records, ...(loaded ? { loaded } : {}) });
  } catch (error) {
    emit({
      type: "notice",
      message: `The run's summary was not recorded for the viewer (${(error as Error).message.replace(/\s+/g, " ").trim()}): \`openeval view\` will compute it when its leaderboard is first opened`,
    });
  }
  collectAfterLargeRead(records.evalRuns.length);
}

/** Evals whose candidates get earlyStop checks in this invocation; says why when some are left to final grading. */
function monitoredEvals(
  benchmark: BenchmarkDefinition,
  concurrency: number,
  finalOnly: boolean,
  emit: RunnerListener,
): Set<string> {
  const withEarlyStop = benchmark.evals
    .filter((evaluation) => earlyStopPolicy(evaluation.settings.earlyStop) !== null)
    .map((evaluation) => evaluation.id);
  if (withEarlyStop.length === 0 || finalOnly) return new Set();
  if (concurrency < 2) {
    emit({
      type: "notice",
      message: `earlyStop is off for ${withEarlyStop.join(", ")}: checks need a second lane, and concurrency is ${concurrency}. Raise --concurrency to 2 or more to use it.`,
    });
    return new Set();
  }
  return new Set(withEarlyStop);
}

/** `--model` and replaceModels are checked like benchmark.ts's own list. */
export function checkModelRefs(benchmark: BenchmarkDefinition, scope: PlanScope): void {
  for (const models of [scope.models, scope.replaceModels]) if (models) checkModelOverride(benchmark, models);
}

function describeRun(runId: string, benchmark: BenchmarkDefinition, models: string[], scope: PlanScope): BenchmarkRun {
  return {
    id: runId,
    name: benchmark.name,
    benchmarkDirectory: benchmark.directory,
    createdAt: new Date().toISOString(),
    opencodeVersion: OPENCODE_VERSION,
    models,
    variants: plannedVariants(benchmark, scope)
      .map((variant) => variant.name)
      .filter((name) => name !== CURRENT_VARIANT_NAME),
    repetitions: benchmark.settings.repetitions,
    evals: benchmark.evals.map((evaluation) => evaluation.id),
  };
}

/** The notice a new round of adaptive repetitions starts with. */
function describeRound(work: readonly SlotWork[]): string {
  const repetitions = [...new Set(work.map((item) => item.slot.repetition))].sort((a, b) => a - b);
  return `Adaptive repetitions: comparisons still undecided; running repetition ${repetitions.join(", ")} of ${work.length} slot(s)`;
}
