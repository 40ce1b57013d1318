// What a runner records about each invocation in the run's store (its `events` table), so that another process —
// the live viewer — can show the queue: the work planned, the --max-cost cap and concurrency it runs under, and
// how it ended. Parsed when read back.
import * as z from "zod";
import { SlotKeySchema } from "./schema.ts";

export const INVOCATION_STARTED = "invocation.started";
export const INVOCATION_FINISHED = "invocation.finished";

/** A slot's planned work; records made before variants have no variant and read as current (SlotKeySchema). */
export const PlannedWorkSchema = SlotKeySchema.extend({ kind: z.enum(["candidate", "judge"]) });

export const InvocationStartedSchema = z.object({
  invocation: z.string(),
  startedAt: z.string(),
  pid: z.number().int(),
  concurrency: z.number().int().positive(),
  /** --max-cost; null without a cap. */
  maxCostUSD: z.number().nullable(),
  /** The plan's estimate of this invocation's spend; null when unknown. */
  estimateUSD: z.number().nullable(),
  /** Work the plan scheduled (a candidate's judging is queued when it finishes). */
  work: z.array(PlannedWorkSchema),
});

export const InvocationFinishedSchema = z.object({
  invocation: z.string(),
  finishedAt: z.string(),
  complete: z.boolean(),
  verdict: z.enum(["pass", "fail", "unknown"]),
});

export type PlannedWork = z.infer<typeof PlannedWorkSchema>;
export type InvocationStarted = z.infer<typeof InvocationStartedSchema>;
export type InvocationFinished = z.infer<typeof InvocationFinishedSchema>;
