// noToolErrors(): no tool call of the candidate failed (OpenCode's `error` state: a tool that could not run or threw;
// a shell command that ran and exited non-zero completed).
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { parseOptions } from "./parse-options.ts";
import { quote } from "./quote.ts";

const NoToolErrorsOptionsSchema = z.strictObject({
  ignore: z.array(z.string().min(1)).optional(),
  sessionID: z.string().min(1).optional(),
});

/** The failed calls listed in measurements; the count covers them all. */
const LISTED_ERRORS = 10;

export interface NoToolErrorsOptions {
  /** Tool names whose failures do not count (e.g. a `read` of a file that may not exist). */
  ignore?: string[];
  /** Only this session's calls (default: every session, root and subagents). */
  sessionID?: string;
}

export interface NoToolErrorsScore {
  value: boolean;
  reason: string;
  measurements: {
    calls: number;
    failed: number;
    /** Calls still running or preparing when the recording ended: not failures, but not successes either. */
    unfinished: number;
    ignored: string[];
    /** The first failed calls, each with its error (shortened). */
    errors: { id: string; name: string; error: string }[];
  };
}

/**
 * @example
 * export default (ctx: JudgeContext) => ({ scores: { clean_tools: noToolErrors(ctx, { ignore: ["webfetch"] }) } });
 */
export function noToolErrors(ctx: JudgeContext, options: NoToolErrorsOptions = {}): NoToolErrorsScore {
  const { ignore = [], sessionID } = parseOptions("noToolErrors", NoToolErrorsOptionsSchema, options);
  const calls = ctx.recording
    .tools(sessionID ? { sessionID } : undefined)
    .filter((call) => !ignore.includes(call.name));
  const failed = calls.filter((call) => call.status === "failed");
  const unfinished = calls.filter((call) => call.status === "called" || call.status === "preparing").length;
  const first = failed[0];
  return {
    value: failed.length === 0,
    reason:
      first === undefined
        ? `none of ${calls.length} tool call${calls.length === 1 ? "" : "s"} failed`
        : `${failed.length} of ${calls.length} tool calls failed; first: ${first.name} ${quote(first.error ?? "(no error text)")}`,
    measurements: {
      calls: calls.length,
      failed: failed.length,
      unfinished,
      ignored: ignore,
      errors: failed.slice(0, LISTED_ERRORS).map((call) => ({
        id: call.id,
        name: call.name,
        error: (call.error ?? "").slice(0, 500),
      })),
    },
  };
}
