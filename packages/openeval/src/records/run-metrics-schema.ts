// RunMetrics on their own: the recording writes and reads them, and a code-judge worker (which loads what it
// imports at every start) then builds only this schema, not every record the store keeps.
import * as z from "zod";

const count = z.number().int().nonnegative();
const nullableNumber = z.number().nullable();

/**
 * RunMetrics: computed once from a recording, stored with it and with its eval run. Version 2 counts
 * requests from the recorded attempts (a rejected attempt is failed, not succeeded), times only steps that produced
 * output, and adds finish reasons and truncated steps; version-1 records (older runs) lack those two.
 */
export const RunMetricsSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  cost: z.object({ usd: nullableNumber }),
  tokens: z.object({
    input: nullableNumber,
    output: nullableNumber,
    reasoning: nullableNumber,
    cacheRead: nullableNumber,
    cacheWrite: nullableNumber,
  }),
  tools: z.object({ calls: count, succeeded: count, failed: count, unfinished: count, errorRate: nullableNumber }),
  /** `retries`: attempts OpenCode sent again after a failure (read from its log: 1.18 persists none); null when the recording cannot tell. */
  requests: z
    .object({
      started: count,
      succeeded: count,
      failed: count,
      retries: count.nullable(),
      /** Model steps by how they ended (`stop`, `tool-calls`, `length`, …; `error` for a rejected or failed attempt, `unfinished`). */
      finishReasons: z.record(z.string(), count).optional(),
    })
    .nullable(),
  compactions: count.nullable(),
  /** Model steps cut at the output limit (finish reason `length`). */
  truncated: count.nullable().optional(),
  timing: z.object({ elapsedMs: nullableNumber, modelActiveMs: nullableNumber, outputTokensPerSecond: nullableNumber }),
});

export type RunMetrics = z.infer<typeof RunMetricsSchema>;
