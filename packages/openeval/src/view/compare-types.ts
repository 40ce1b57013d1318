// The comparison answer: what `openeval report --compare` prints as JSON and the compare page shows;
// the viewer's API gives it as a per-pair summary and pages of changes.
// b − a throughout: side a is the reference (the earlier run, baseline.json, or the first model).
import type { ChangeStatus, CriterionChange, EvalChange, ModelPairComparison } from "../results/index.ts";
import type { SlotCell } from "./api-types.ts";

export type { ChangeStatus, CriterionChange, EvalChange, ModelPairComparison };

export interface ComparisonSide {
  kind: "run" | "baseline";
  /** The run's id (for baseline.json: the run it was set from). */
  runId: string;
  name: string;
  createdAt: string;
  /** The baseline.json file (kind "baseline"); null for a run. */
  file: string | null;
}

/** One slot's active work on each side, for opening the two transcripts side by side. */
export interface SlotPair {
  repetition: number;
  /** The case of an eval with cases; absent for an eval without. */
  case?: string;
  a: SlotCell | null;
  b: SlotCell | null;
}

export interface EvalChangeView extends EvalChange {
  /** By repetition; empty when a side has no recordings (baseline.json keeps none). */
  slots: SlotPair[];
}

export interface ModelPairView extends Omit<ModelPairComparison, "evals"> {
  evals: EvalChangeView[];
}

export interface ComparisonAnswer {
  a: ComparisonSide;
  b: ComparisonSide;
  pairs: ModelPairView[];
}

/** What to compare: run ids (or "baseline" for side a: the baseline.json beside side b's benchmark.ts). */
export interface ComparisonRequest {
  a: string;
  b: string;
  /**
   * Candidate of side a and of side b (a model, or `model [variant]`); default: every candidate both sides have.
   * Required to compare a run with itself.
   */
  modelA?: string;
  modelB?: string;
}

export const CHANGE_SORTS = ["eval", "difference", "a", "b", "status"] as const;
export type ChangeSort = (typeof CHANGE_SORTS)[number];

/**
 * A model pair as GET /api/compare gives it: everything that is per pair. Its evals' changes come in pages
 * (GET /api/compare/changes), so that the answer stays small however many evals the runs have.
 */
export interface ModelPairSummary extends Omit<ModelPairView, "evals"> {
  /** How many evals the pair compares. */
  evalCount: number;
  /**
   * The evals' differences for the plot: each b − a in points (to 0.1) that some eval has, with how many have it and
   * the first few of them (NAMED_EVALS, in the comparison's order) to name it by.
   */
  differences: { points: number; evals: number; evalIds: string[] }[];
}

export interface ComparisonSummary {
  a: ComparisonSide;
  b: ComparisonSide;
  pairs: ModelPairSummary[];
}

/** One row of the compare page: a criterion's change, with its eval's change and the eval's slot pairs. */
export interface ChangeRow extends CriterionChange {
  evalChange: Omit<EvalChange, "criteria">;
  slots: SlotPair[];
}

/** Which changes of a model pair, in which order: the compare page's sort and status filter. */
export interface ChangeSelection {
  /** Default "status": regressions first, the biggest drop on top. */
  sort?: ChangeSort;
  descending?: boolean;
  status?: ChangeStatus;
}

/** A page of one model pair's changes (`pair`: its position in the comparison's `pairs`). */
export interface ChangeQuery extends ChangeSelection {
  pair: number;
  offset: number;
  limit: number;
}
