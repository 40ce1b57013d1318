// mergeRuns(): copy the finalized work of one run into another of the same benchmark, as `openeval merge-runs`
// (OpenEval's rule: the target's work wins — a slot it already holds keeps its records, and the source's records of
// that slot are reported, not copied; an id both hold with different content is an error). Records are inserted as
// recorded, never sealed again, with their folders; the source run is left as it was.
import { cpSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  readRunModels,
  recordModelsAdded,
  ResultsStore,
  slotId,
  toCandidateRef,
  type EvalRun,
} from "../records/index.ts";
import { RunMaintenanceError } from "../results/index.ts";
import { checkNotHeld, whileHoldingRun } from "./recover.ts";

export const RUNS_MERGED_EVENT = "runs.merged";

export interface MergedRuns {
  directory: string;
  from: string;
  /** Slots whose records were copied (`eval/model/variant/repetition`). */
  copiedSlots: string[];
  /** Slots the target already held: its records are kept; `sameInputs` false when the source's were made from other inputs. */
  keptSlots: { slot: string; sameInputs: boolean }[];
  evalRuns: number;
  judgeRuns: number;
}

/**
 * @example
 * const merged = await mergeRuns("./results/run-a", "./results/run-b");
 * console.log(merged.copiedSlots.length, merged.keptSlots.filter((slot) => !slot.sameInputs));
 */
export async function mergeRuns(to: string, from: string): Promise<MergedRuns> {
  const directory = resolve(to);
  const source = resolve(from);
  if (directory === source) throw new RunMaintenanceError("mergeSameRun", { directory });
  const target = ResultsStore.open(directory);
  try {
    const origin = ResultsStore.open(source, { readonly: true });
    try {
      checkNotHeld(origin);
      return whileHoldingRun(target, () => merge(target, origin));
    } finally {
      origin.close();
    }
  } finally {
    target.close();
  }
}

function merge(target: ResultsStore, source: ResultsStore): MergedRuns {
  const [into, from] = [target.readRun(), source.readRun()];
  if (resolve(into.benchmarkDirectory) !== resolve(from.benchmarkDirectory)) {
    throw new RunMaintenanceError("mergeOtherBenchmark", {
      into: into.benchmarkDirectory,
      from: from.benchmarkDirectory,
    });
  }
  const unfinished = source.evalRuns().filter((run) => run.state === "running");
  if (unfinished.length > 0) {
    throw new RunMaintenanceError("mergeUnfinished", {
      directory: source.directory,
      evalRunIds: unfinished.map((run) => run.id),
    });
  }
  const held = Map.groupBy(target.evalRuns(), (run) => slotId(run.slot));
  const offered = Map.groupBy(source.evalRuns(), (run) => slotId(run.slot));
  const copied: EvalRun[] = [];
  const keptSlots: MergedRuns["keptSlots"] = [];
  for (const [slot, runs] of offered) {
    const mine = held.get(slot);
    if (mine)
      keptSlots.push({
        slot: describe(runs[0]!),
        sameInputs: mine.at(-1)!.input.candidateFingerprint === runs.at(-1)!.input.candidateFingerprint,
      });
    else copied.push(...runs);
  }
  const copiedIds = new Set(copied.map((run) => run.id));
  const judgeRuns = source.judgeRuns().filter((run) => copiedIds.has(run.evalRunId) && run.state !== "running");
  for (const record of [...copied, ...judgeRuns]) {
    const present =
      "evalRunId" in record
        ? target.judgeRuns(record.evalRunId).some((run) => run.id === record.id)
        : target.evalRun(record.id) !== null;
    if (present) throw new RunMaintenanceError("mergeConflict", { id: record.id });
  }
  // Step: folders first, then the rows in one transaction: a crash between them leaves files no row points at, never a row without its files.
  for (const run of copied)
    copyFolder(
      source.directory,
      target.directory,
      run.evidence ? dirname(run.evidence.directory) : join("eval-runs", run.id),
    );
  for (const run of judgeRuns) copyFolder(source.directory, target.directory, run.directory);
  target.copyFinalized(copied, judgeRuns);
  const { active, retired } = readRunModels(target);
  recordModelsAdded(
    target,
    readRunModels(source).active.filter((model) => !active.includes(model) && !retired.includes(model)),
  );
  const result = {
    directory: target.directory,
    from: source.directory,
    copiedSlots: [...new Set(copied.map(describe))],
    keptSlots,
    evalRuns: copied.length,
    judgeRuns: judgeRuns.length,
  };
  target.appendEvent(RUNS_MERGED_EVENT, { ...result, runId: from.id });
  return result;
}

/** `eval/model/repetition`, with `/variant` before the repetition unless current. */
function describe(run: EvalRun): string {
  const { variant } = toCandidateRef(run.slot);
  return `${run.slot.evalId}/${run.slot.model}${variant === undefined ? "" : `/${variant}`}/${run.slot.repetition}`;
}

/** Files already there (a merge that stopped before its rows were inserted) are left as they are: the same copy. */
function copyFolder(from: string, to: string, relative: string): void {
  if (existsSync(join(from, relative)))
    cpSync(join(from, relative), join(to, relative), {
      recursive: true,
      errorOnExist: false,
      force: false,
      verbatimSymlinks: true,
    });
}
