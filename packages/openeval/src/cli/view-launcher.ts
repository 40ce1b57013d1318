// The viewer's runs: planned as `openeval plan` plans them, and started as `openeval run` itself, a child process of
// the viewer with the page's choices as its flags. So a run started from the page has the CLI's coordinator, store,
// lock, events and exit semantics, and Stop is the CLI's SIGTERM: running work is recorded interrupted. The child gets
// SIGTERM too if the viewer dies.
import { join, resolve } from "node:path";
import { describeSlot, describeUnbounded, type MaximumCost, type PlanScope, type PlannedSlot } from "../plan/index.ts";
import { listRunIds, ResultsStore, RunNotFoundError, resultsRoot } from "../records/index.ts";
import { planBenchmark, RunInProgressError, runHolder } from "../run/index.ts";
import { tieToRunner } from "../sandbox/index.ts";
import { RunLaunchError } from "../view/index.ts";
import type {
  RunChoices,
  RunLauncher,
  RunPlanAnswer,
  RunSelection,
  RunStartRequest,
  StartedRun,
  StoppedRun,
} from "../view/index.ts";

const CLI = join(import.meta.dirname, "main.ts");
/** What is kept of a runner's stderr to say why it ended before starting. */
const KEPT_OUTPUT = 16_384;

export function createViewLauncher(benchmark: string): RunLauncher {
  const benchmarkDirectory = resolve(benchmark);
  const running = new Map<string, Bun.Subprocess<"ignore", "pipe", "pipe">>();

  const plan = async (selection: RunSelection): Promise<RunPlanAnswer> => {
    const runDirectory = selection.run === "new" ? null : runDirectoryOf(benchmarkDirectory, selection.run);
    const planned = await planBenchmark({
      benchmark: benchmarkDirectory,
      ...(runDirectory ? { run: runDirectory } : { new: true }),
      scope: scopeOf(selection),
    });
    const inScope = planned.slots.filter((slot) => slot.deferredBy !== "scope");
    const counts: RunPlanAnswer["counts"] = {};
    for (const slot of inScope) counts[slot.action] = (counts[slot.action] ?? 0) + 1;
    return {
      choices: choicesOf(benchmarkDirectory, planned.slots),
      runId: selection.run === "new" ? null : selection.run,
      heldBy: runDirectory ? holderOf(runDirectory) : null,
      work: inScope.map((slot) => ({ slot: describeSlot(slot), action: slot.action, reason: slot.reason })),
      counts,
      estimateUSD: planned.estimate.usd,
      maximumUSD: planned.maximum.usd,
      unbounded: planned.maximum.unbounded.map((work) => ({
        slot: describeSlot(work.slot),
        action: work.action,
        why: work.why,
      })),
      confirmation: confirmationOf(planned.maximum),
    };
  };

  const start = async (request: RunStartRequest): Promise<StartedRun> => {
    const answer = await plan(request);
    if (answer.heldBy !== null)
      throw new RunInProgressError(answer.heldBy, join(resultsRoot(benchmarkDirectory), request.run), "");
    if (!sameMaximum(answer.maximumUSD, request.confirm.maximumUSD))
      throw new RunLaunchError("planChanged", {
        confirmed: describeUSD(request.confirm.maximumUSD),
        now: describeUSD(answer.maximumUSD),
      });
    const child = Bun.spawn(tieToRunner([process.execPath, "--no-install", CLI, ...runArguments(request)], "SIGTERM"), {
      cwd: benchmarkDirectory,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = keepTail(child.stderr);
    const runId = await startedRunId(child.stdout);
    if (runId === null) {
      const exitCode = await child.exited;
      throw new RunLaunchError("runnerEnded", { exitCode, output: await stderr });
    }
    running.set(runId, child);
    void child.exited.then(() => running.delete(runId));
    return { runId, pid: child.pid };
  };

  const stop = async (runId: string): Promise<StoppedRun> => {
    const child = running.get(runId);
    if (!child) throw new RunLaunchError("notRunHere", { runId });
    child.kill("SIGTERM");
    return { runId, exitCode: await child.exited };
  };

  return {
    plan,
    start,
    stop,
    async close() {
      const children = [...running.values()];
      for (const child of children) child.kill("SIGTERM");
      await Promise.all(children.map((child) => child.exited));
    },
  };
}

/** A run of this benchmark by its id: never a path, so the page cannot point the runner elsewhere. */
function runDirectoryOf(benchmarkDirectory: string, runId: string): string {
  if (!listRunIds(benchmarkDirectory).includes(runId))
    throw new RunNotFoundError({ named: runId, runsUnder: resultsRoot(benchmarkDirectory) });
  return join(resultsRoot(benchmarkDirectory), runId);
}

function scopeOf(selection: RunSelection): PlanScope {
  return {
    onlyEvals: selection.evals,
    onlyCases: selection.cases,
    onlyModels: selection.models,
    onlyVariants: selection.variants,
    onlyRepetitions: selection.repetitions,
    maxCostUSD: selection.maxCostUSD,
  };
}

/** The CLI flags of a selection: `openeval run` is asked exactly what the page planned. */
export function runArguments(selection: RunSelection): string[] {
  const repeated = (flag: string, values: readonly (string | number)[] | undefined) =>
    (values ?? []).flatMap((value) => [flag, String(value)]);
  return [
    "run",
    "--benchmark",
    ".",
    ...(selection.run === "new" ? ["--new"] : ["--run", selection.run]),
    ...repeated("--only-eval", selection.evals),
    ...repeated("--only-case", selection.cases),
    ...repeated("--only-model", selection.models),
    ...repeated("--only-variant", selection.variants),
    ...repeated("--only-repetition", selection.repetitions),
    ...(selection.maxCostUSD === undefined ? [] : ["--max-cost", String(selection.maxCostUSD)]),
    "--json",
  ];
}

/** Every slot the benchmark (and the run) has, whatever the selection: what the page offers to choose from. */
function choicesOf(benchmarkDirectory: string, slots: readonly PlannedSlot[]): RunChoices {
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const evals = [...Map.groupBy(slots, (slot) => slot.evalId)].map(([id, ofEval]) => ({
    id,
    cases: distinct(ofEval.flatMap((slot) => (slot.case === undefined ? [] : [slot.case]))),
  }));
  return {
    runs: listRunIds(benchmarkDirectory).reverse(),
    evals,
    models: distinct(slots.map((slot) => slot.model)),
    variants: distinct(slots.map((slot) => slot.variant)),
    repetitions: distinct(slots.map((slot) => slot.repetition)).sort((a, b) => a - b),
  };
}

function holderOf(runDirectory: string): number | null {
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    return runHolder(store);
  } finally {
    store.close();
  }
}

/** What the person confirms by starting: the most the run can spend, or that nothing bounds it and why. */
function confirmationOf(maximum: MaximumCost): string {
  if (maximum.usd !== null) return `Start this run: it can spend at most $${maximum.usd.toFixed(4)}.`;
  return `Start this run although the most it can spend is unknown: ${describeUnbounded(maximum.unbounded)}.`;
}

/** The same maximum to the cent's hundredth: the page shows and sends what the plan gave. */
function sameMaximum(a: number | null, b: number | null): boolean {
  return a === null || b === null ? a === b : Math.abs(a - b) < 1e-6;
}

function describeUSD(value: number | null): string {
  return value === null ? "an unknown maximum" : `a maximum of $${value.toFixed(4)}`;
}

/** The run's id from its `run.started` event; null when the runner ended without one. */
async function startedRunId(stdout: ReadableStream<Uint8Array>): Promise<string | null> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return null;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      const event = parseEvent(line);
      if (event?.type === "run.started" && typeof event.runId === "string") {
        // The rest (events, the summary) is read and dropped, so the runner never blocks on a full pipe.
        void drain(reader);
        return event.runId;
      }
    }
  }
}

function parseEvent(line: string): { type?: unknown; runId?: unknown } | null {
  try {
    return JSON.parse(line) as { type?: unknown; runId?: unknown };
  } catch {
    return null;
  }
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done);
}

/** Reads a stream to its end, keeping its last KEPT_OUTPUT characters. */
async function keepTail(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let kept = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return kept;
    kept = (kept + decoder.decode(value, { stream: true })).slice(-KEPT_OUTPUT);
  }
}
