// eval.ts `earlyStop` resolved to the policy the runner follows: `true` means the documented defaults,
// an object overrides some of them, and its `onlyModels` limits the checks to those models' candidates.
import type { EvalSettings } from "./schema.ts";

/** How often, how many times and for how much (judge spend per eval run) a running candidate may be checked. */
export interface EarlyStopPolicy {
  minIntervalMs: number;
  maxChecks: number;
  maxCostUSD: number;
}

export const DEFAULT_EARLY_STOP: EarlyStopPolicy = { minIntervalMs: 45_000, maxChecks: 12, maxCostUSD: 1 };

/**
 * The policy for `model`'s candidates (null: not checked); without a model, the policy of the eval's checked models.
 * @example earlyStopPolicy({ maxChecks: 2 }) // { minIntervalMs: 45_000, maxChecks: 2, maxCostUSD: 1 }
 * @example earlyStopPolicy({ onlyModels: ["a/b"] }, "c/d") // null
 */
export function earlyStopPolicy(setting: EvalSettings["earlyStop"], model?: string): EarlyStopPolicy | null {
  if (setting === undefined || setting === false) return null;
  if (setting === true) return DEFAULT_EARLY_STOP;
  const { onlyModels, ...limits } = setting;
  if (model !== undefined && onlyModels !== undefined && !onlyModels.includes(model)) return null;
  return { ...DEFAULT_EARLY_STOP, ...limits };
}
