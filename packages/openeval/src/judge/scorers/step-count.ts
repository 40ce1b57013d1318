// stepCount(): the candidate took between `min` and `max` model steps (requests to the model: every session's, a
// compaction summary included), as the recording's metrics count them.
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { ScorerError } from "./errors.ts";
import { parseOptions } from "./parse-options.ts";

const StepCountOptionsSchema = z
  .strictObject({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() })
  .refine((bounds) => bounds.min !== undefined || bounds.max !== undefined, { message: "give min, max or both" })
  .refine((bounds) => bounds.min === undefined || bounds.max === undefined || bounds.min <= bounds.max, {
    message: "min must not be above max",
  });

export interface StepCountOptions {
  /** At least this many steps. */
  min?: number;
  /** At most this many steps. */
  max?: number;
}

export interface StepCountScore {
  value: boolean;
  reason: string;
  measurements: { steps: number; min: number | null; max: number | null; succeeded: number; failed: number };
}

/**
 * Counts `ctx.metrics.requests.started`: each request to the model once, a failed attempt too. Constructed evidence
 * (recordEvidence) ran no model and counts no steps: that is a ScorerError, not a candidate's 0.
 * @example
 * export default (ctx: JudgeContext) => ({ scores: { efficient: stepCount(ctx, { max: 12 }) } });
 */
export function stepCount(ctx: JudgeContext, bounds: StepCountOptions): StepCountScore {
  const { min, max } = parseOptions("stepCount", StepCountOptionsSchema, bounds);
  const requests = ctx.metrics.requests;
  if (requests === null) throw new ScorerError("stepsUncounted");
  const steps = requests.started;
  const tooFew = min !== undefined && steps < min;
  const tooMany = max !== undefined && steps > max;
  const range = min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `≥ ${min}` : `≤ ${max}`;
  return {
    value: !tooFew && !tooMany,
    reason: `${steps} model step${steps === 1 ? "" : "s"}; ${tooFew ? "fewer than" : tooMany ? "more than" : "within"} the ${range} allowed`,
    measurements: {
      steps,
      min: min ?? null,
      max: max ?? null,
      succeeded: requests.succeeded,
      failed: requests.failed,
    },
  };
}
