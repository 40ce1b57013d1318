// Results-stage errors a user can act on: a bad contributor selection, a refused, missing or unreadable baseline.
// Each carries a stable code; the CLI maps them all to exit code 2 (invalid input, nothing decided).
import { OpenEvalError, SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

/** `--gate`, `--only` or benchmark.ts named a contributor that does not exist. */
export class GateSelectionError extends OpenEvalError {
  readonly code = "OE_GATE_SELECTION_INVALID";
  constructor(
    readonly unknownIds: readonly string[],
    readonly validIds: readonly string[],
  ) {
    super(
      `Unknown verdict contributor${unknownIds.length === 1 ? "" : "s"} ${unknownIds.map((id) => `"${id}"`).join(", ")}; ` +
        `valid ids are ${validIds.join(", ")}`,
    );
  }
}

export type BaselineRefusalReason = "incomplete" | "filtered" | "unresolved" | "failing";

export interface BaselineRefusal {
  reason: BaselineRefusalReason;
  message: string;
}

/** The run cannot become a baseline; every reason is listed, not only the first. */
export class BaselineRefusedError extends OpenEvalError {
  readonly code = "OE_BASELINE_REFUSED";
  constructor(
    readonly runId: string,
    readonly refusals: readonly BaselineRefusal[],
  ) {
    super(
      `Run ${runId} cannot become the baseline:\n${refusals.map((refusal) => `  ${refusal.reason}: ${refusal.message}`).join("\n")}`,
    );
  }
}

/** baseline.json exists but is not a baseline this version can read. */
export class BaselineInvalidError extends OpenEvalError {
  readonly code = "OE_BASELINE_INVALID";
  constructor(
    readonly file: string,
    problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(
      `${file} is not a valid baseline:\n${problems.map((problem) => `  ${problem}`).join("\n")}\nSet it again with: openeval baseline set <run>`,
      options,
    );
  }
}

/** A comparison with baseline.json was asked for, and the benchmark has none. */
export class BaselineMissingError extends OpenEvalError {
  readonly code = "OE_BASELINE_MISSING";
  constructor(readonly file: string) {
    super(
      `No baseline at ${file}, so there is nothing to compare the run with. Make one from an accepted run with ` +
        "`openeval baseline set <run-dir>` and commit it beside benchmark.ts, or drop --against-baseline",
    );
  }
}

const MAINTENANCE_SITUATIONS = {
  noModelsToAdd: {
    code: "OE_RUN_MAINTENANCE",
    message: () => "add-models: name the models to add, e.g. --model openai/gpt-5",
  },
  noModelsToRemove: {
    code: "OE_RUN_MAINTENANCE",
    message: () => "remove-models: name the models to retire, e.g. --model openai/gpt-5",
  },
  modelsNotRemovable: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ absent, active }: { absent: { model: string; retired: boolean }[]; active: string[] }) =>
      `remove-models: ${absent.map(({ model, retired }) => (retired ? `${model} is already retired from this run; \`openeval add-models\` brings it back` : `${model} is not a model of this run; its models are: ${active.join(", ")}`)).join("; ")}`,
  },
  lastModel: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ active }: { active: string[] }) =>
      `remove-models: a run keeps at least one model; ${active.join(", ")} would leave none`,
  },
  mergeSameRun: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ directory }: { directory: string }) =>
      `merge-runs: ${directory} is both runs; name the run to merge into, then the run to merge from`,
  },
  mergeOtherBenchmark: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ into, from }: { into: string; from: string }) =>
      `merge-runs: the runs belong to different benchmarks (${into} and ${from}); merge runs of one benchmark`,
  },
  mergeUnfinished: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ directory, evalRunIds }: { directory: string; evalRunIds: string[] }) =>
      `merge-runs: ${directory} has unfinished eval runs (${evalRunIds.join(", ")}); \`openeval run --run ${directory}\` recovers them first`,
  },
  mergeConflict: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ id }: { id: string }) =>
      `merge-runs: ${id} is recorded in both runs with different content; these runs cannot be merged`,
  },
  snapshotNameInvalid: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ name }: { name: string }) =>
      `snapshot: "${name}" is not a snapshot name; use up to 64 letters, digits, ".", "_" and "-", starting with a letter or digit`,
  },
  snapshotExists: {
    code: "OE_RUN_MAINTENANCE",
    message: ({ name, path }: { name: string; path: string }) =>
      `snapshot: "${name}" already exists (${path}); snapshots are never overwritten, choose another name`,
  },
} as const satisfies Record<string, Situation>;

type MaintenanceSituation = keyof typeof MAINTENANCE_SITUATIONS;

/** add-models, remove-models, merge-runs or snapshot was asked for something the run cannot do (named in the message). */
export class RunMaintenanceError<S extends MaintenanceSituation = MaintenanceSituation> extends SituationError<
  typeof MAINTENANCE_SITUATIONS,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof MAINTENANCE_SITUATIONS)[S]>) {
    super(MAINTENANCE_SITUATIONS, situation, data, options);
  }
}
