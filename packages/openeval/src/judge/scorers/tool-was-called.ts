// toolWasCalled(): the candidate called a tool (by its OpenCode name) at least so many times.
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { ScorerError } from "./errors.ts";
import { parseOptions } from "./parse-options.ts";

const ToolWasCalledOptionsSchema = z.strictObject({
  minTimes: z.number().int().min(1).optional(),
  succeeded: z.boolean().optional(),
});

export interface ToolWasCalledOptions {
  /** Default 1. */
  minTimes?: number;
  /** Count only calls that completed (a shell command that ran and exited non-zero still completed). Default false. */
  succeeded?: boolean;
}

export interface ToolWasCalledScore {
  value: boolean;
  reason: string;
  measurements: {
    tool: string;
    minTimes: number;
    succeededOnly: boolean;
    calls: number;
    completed: number;
    failed: number;
    counted: number;
  };
}

/**
 * Counts calls in every session of the recording (root and subagents).
 * @example
 * export default (ctx: JudgeContext) => ({ scores: { ran_shell: toolWasCalled(ctx, "bash", { succeeded: true }) } });
 */
export function toolWasCalled(ctx: JudgeContext, name: string, options: ToolWasCalledOptions = {}): ToolWasCalledScore {
  if (typeof name !== "string" || name.length === 0) throw new ScorerError("toolNameMissing");
  const { minTimes = 1, succeeded = false } = parseOptions("toolWasCalled", ToolWasCalledOptionsSchema, options);
  const calls = ctx.recording.tools({ name });
  const completed = calls.filter((call) => call.status === "succeeded").length;
  const failed = calls.filter((call) => call.status === "failed").length;
  const counted = succeeded ? completed : calls.length;
  const value = counted >= minTimes;
  const what = succeeded ? `successful ${name} call` : `${name} call`;
  const detail = succeeded && calls.length !== completed ? ` (${calls.length} in all, ${failed} failed)` : "";
  return {
    value,
    reason: `${counted} ${what}${counted === 1 ? "" : "s"}${detail}; ${value ? "at least" : "fewer than"} the ${minTimes} required`,
    measurements: { tool: name, minTimes, succeededOnly: succeeded, calls: calls.length, completed, failed, counted },
  };
}
