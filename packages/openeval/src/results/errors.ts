// Results-stage errors a user can act on: a bad contributor selection, a refused or unreadable baseline.
// Each carries a stable code; the CLI maps all three to exit code 2 (invalid input, nothing decided).
import { OpenEvalError } from "../util/errors.ts";

/** `--gate`, `--only` or benchmark.ts named a contributor that does not exist. */
export class GateSelectionError extends OpenEvalError {
  readonly code = "OE_GATE_SELECTION_INVALID";
  constructor(readonly unknownIds: readonly string[], readonly validIds: readonly string[]) {
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
  constructor(readonly runId: string, readonly refusals: readonly BaselineRefusal[]) {
    super(`Run ${runId} cannot become the baseline:\n${refusals.map((refusal) => `  ${refusal.reason}: ${refusal.message}`).join("\n")}`);
  }
}

/** baseline.json exists but is not a baseline this version can read. */
export class BaselineInvalidError extends OpenEvalError {
  readonly code = "OE_BASELINE_INVALID";
  constructor(readonly file: string, problems: readonly string[], options?: { cause?: unknown }) {
    super(`${file} is not a valid baseline:\n${problems.map((problem) => `  ${problem}`).join("\n")}\nSet it again with: openeval baseline set <run>`, options);
  }
}

/** add-models, remove-models, merge-runs or snapshot was asked for something the run cannot do (named in the message). */
export class RunMaintenanceError extends OpenEvalError {
  readonly code = "OE_RUN_MAINTENANCE";
}
