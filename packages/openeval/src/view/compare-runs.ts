// The comparison of two recorded runs, a run and its baseline.json, or two models of one run. It reads
// what was recorded (each slot's active work, as the viewer shows it) rather than re-planning against today's
// benchmark.ts: an edited judge must not turn the earlier run's judgments into "unresolved" before they are compared.
import { basename, join } from "node:path";
import { candidateName, cellId } from "../records/index.ts";
import type { RecordedSlot } from "../summary/index.ts";
import { toSlotCell } from "./slot-cell.ts";
import { baselineSummaries, compareSummaries, readBaseline, type ModelSummary } from "../results/index.ts";
import { BASELINE_FILE } from "../summary/index.ts";
import type { ComparisonAnswer, ComparisonRequest, ComparisonSide, ModelPairView, SlotPair } from "./compare-types.ts";
import { CompareError } from "./errors.ts";
import { readRunIndex, type RunIndex } from "./run-index.ts";

/** One side, loaded: its model summaries and (for a run) each cell's slots. */
export interface LoadedSide {
  side: ComparisonSide;
  summaries: readonly ModelSummary[];
  /** cellId → slots; null for baseline.json, which keeps no recordings. */
  slots: ReadonlyMap<string, readonly RecordedSlot[]> | null;
}

/** The run's side as its index has it: the summaries its matrix columns were made from, its slots by cell. */
export function loadRunSide(id: string, index: RunIndex): LoadedSide {
  return {
    side: { kind: "run", runId: id, name: index.run.name, createdAt: index.run.createdAt, file: null },
    summaries: index.matrix.columns,
    slots: index.matrix.slotsByCell,
  };
}

/** baseline.json beside the run's benchmark.ts. */
export function baselineFile(benchmarkDirectory: string): string {
  return join(benchmarkDirectory, BASELINE_FILE);
}

export async function loadBaselineSide(benchmarkDirectory: string): Promise<LoadedSide> {
  const file = baselineFile(benchmarkDirectory);
  const baseline = await readBaseline(file);
  if (!baseline) throw new CompareError("noBaseline", { file });
  return {
    side: { kind: "baseline", runId: baseline.runId, name: "baseline.json", createdAt: baseline.createdAt, file },
    summaries: baselineSummaries(baseline),
    slots: null,
  };
}

/**
 * b − a for each candidate pair (a model, or `model [variant]` as candidateName spells it): `modelA`/`modelB` when
 * given (either alone means the same on both sides), else every candidate both sides have. Throws CompareError naming a model a side lacks, or when nothing can be paired.
 */
export function compareSides(
  a: LoadedSide,
  b: LoadedSide,
  request: Pick<ComparisonRequest, "modelA" | "modelB"> = {},
): ComparisonAnswer {
  const modelsOf = (loaded: LoadedSide) => loaded.summaries.map(candidateName);
  const sameRun = a.side.kind === "run" && b.side.kind === "run" && a.side.runId === b.side.runId;
  let pairs: [string, string][];
  if (request.modelA !== undefined || request.modelB !== undefined) {
    pairs = [[request.modelA ?? request.modelB!, request.modelB ?? request.modelA!]];
  } else if (sameRun) {
    throw new CompareError("sameRunWithoutModels", { runId: a.side.runId, models: modelsOf(a) });
  } else {
    pairs = modelsOf(b)
      .filter((model) => modelsOf(a).includes(model))
      .map((model) => [model, model]);
    if (pairs.length === 0)
      throw new CompareError("noSharedModel", {
        a: describe(a),
        modelsA: modelsOf(a),
        b: describe(b),
        modelsB: modelsOf(b),
      });
  }
  return { a: a.side, b: b.side, pairs: pairs.map(([modelA, modelB]) => comparePair(a, b, modelA, modelB)) };
}

function comparePair(a: LoadedSide, b: LoadedSide, modelA: string, modelB: string): ModelPairView {
  const find = (loaded: LoadedSide, model: string) => {
    const summary = loaded.summaries.find((candidate) => candidateName(candidate) === model);
    if (!summary)
      throw new CompareError("modelMissing", {
        side: describe(loaded),
        model,
        models: loaded.summaries.map(candidateName),
      });
    return summary;
  };
  const comparison = compareSummaries(find(a, modelA), find(b, modelB));
  return {
    ...comparison,
    evals: comparison.evals.map((evaluation) => ({
      ...evaluation,
      slots: pairSlots(
        a.slots?.get(cellId(evaluation.evalId, modelA)),
        b.slots?.get(cellId(evaluation.evalId, modelB)),
      ),
    })),
  };
}

/** The two sides' slots paired by case (for an eval with cases) and repetition, in case then repetition order. */
function pairSlots(a: readonly RecordedSlot[] | undefined, b: readonly RecordedSlot[] | undefined): SlotPair[] {
  if (!a || !b) return [];
  const keyOf = (slot: Pick<RecordedSlot, "case" | "repetition">) => `${slot.case ?? ""}\u0000${slot.repetition}`;
  const keys = new Map<string, Pick<RecordedSlot, "case" | "repetition">>();
  for (const slot of [...a, ...b]) if (!keys.has(keyOf(slot))) keys.set(keyOf(slot), slot);
  const cellOf = (slots: readonly RecordedSlot[], key: string) => {
    const slot = slots.find((candidate) => keyOf(candidate) === key);
    return slot ? toSlotCell(slot) : null;
  };
  return [...keys]
    .sort(([, x], [, y]) => (x.case ?? "").localeCompare(y.case ?? "") || x.repetition - y.repetition)
    .map(([key, slot]) => ({
      repetition: slot.repetition,
      ...(slot.case === undefined ? {} : { case: slot.case }),
      a: cellOf(a, key),
      b: cellOf(b, key),
    }));
}

function describe(loaded: LoadedSide): string {
  return loaded.side.kind === "baseline" ? `the baseline (${loaded.side.file})` : `run ${loaded.side.runId}`;
}

export interface CompareRunsOptions {
  /** Side a: a run directory, or "baseline" for the baseline.json beside side b's benchmark.ts. */
  a: string;
  /** Side b: a run directory. */
  b: string;
  modelA?: string;
  modelB?: string;
}

/**
 * Compares two recorded runs (b − a), for scripts and `openeval report --compare`.
 * @example
 * const comparison = await compareRuns({ a: "results/<run-a>", b: "results/<run-b>" });
 * comparison.pairs[0].evals.flatMap((e) => e.criteria).filter((c) => c.status === "regression")
 */
export async function compareRuns(options: CompareRunsOptions): Promise<ComparisonAnswer> {
  const indexB = readRunIndex(options.b);
  const b = loadRunSide(basename(indexB.directory), indexB);
  const a = options.a === "baseline" ? await loadBaselineSide(indexB.run.benchmarkDirectory) : runSideOf(options.a);
  return compareSides(a, b, options);
}

function runSideOf(directory: string): LoadedSide {
  const index = readRunIndex(directory);
  return loadRunSide(basename(index.directory), index);
}
