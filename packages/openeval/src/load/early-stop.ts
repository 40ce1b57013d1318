// eval.ts `earlyStop` resolved to the policy the runner follows (SPEC §8.2): `true` means the documented defaults,
// an object overrides some of them.
import type { EvalSettings } from "./schema.ts";

/** How often, how many times and for how much (judge spend per eval run) a running candidate may be checked. */
export interface EarlyStopPolicy {
  minIntervalMs: number;
  maxChecks: number;
  maxCostUSD: number;
}

export const DEFAULT_EARLY_STOP: EarlyStopPolicy = { minIntervalMs: 45_000, maxChecks: 12, maxCostUSD: 1 };

/** @example earlyStopPolicy({ maxChecks: 2 }) // { minIntervalMs: 45_000, maxChecks: 2, maxCostUSD: 1 } */
export function earlyStopPolicy(setting: EvalSettings["earlyStop"]): EarlyStopPolicy | null {
  if (setting === undefined || setting === false) return null;
  return setting === true ? DEFAULT_EARLY_STOP : { ...DEFAULT_EARLY_STOP, ...setting };
}
