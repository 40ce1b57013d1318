// toolSequence(): the candidate's tool calls contain the expected calls in this order (an ordered subsequence: other
// calls may come between), each by name and, when given, by a partial match of its input.
import * as z from "zod";
import type { JudgeContext, JudgeToolCall } from "../../recording/index.ts";
import { ScorerError } from "./errors.ts";
import { parseOptions } from "./parse-options.ts";
import { describePattern, matchesPartially, type InputPattern } from "./partial-match.ts";

const PatternSchema: z.ZodType<InputPattern> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.instanceof(RegExp),
    z.array(PatternSchema),
    z.record(z.string(), PatternSchema),
  ]),
);

const StepSchema = z.union([
  z.string().min(1),
  z.strictObject({ name: z.string().min(1), input: z.record(z.string(), PatternSchema).optional() }),
]);

const ToolSequenceOptionsSchema = z.strictObject({
  succeeded: z.boolean().optional(),
  sessionID: z.string().min(1).optional(),
});

/** One expected call: a tool name, or a name with a pattern its input must match (see matchesPartially). */
export type ToolSequenceStep = string | { name: string; input?: { [key: string]: InputPattern } };

export interface ToolSequenceOptions {
  /** Match only calls that completed (a shell command that exited non-zero still completed). Default false. */
  succeeded?: boolean;
  /** Only this session's calls (default: every session, root and subagents, in the order they were made). */
  sessionID?: string;
}

export interface ToolSequenceScore {
  value: boolean;
  reason: string;
  measurements: {
    expected: { name: string; input: unknown }[];
    /** The call each expected step matched, in order, until the first step that found none. */
    matched: { step: number; callId: string; callIndex: number }[];
    /** The first expected step (1-based) no later call matched; null when all did. */
    missingStep: number | null;
    /** The names of the calls considered, in order. */
    calls: string[];
    succeededOnly: boolean;
  };
}

/**
 * Matches greedily: each expected step takes the earliest call after the previous match, which finds the sequence
 * whenever one exists.
 * @example
 * toolSequence(ctx, ["read", { name: "edit", input: { filePath: /slugify\.js$/ } }, { name: "bash", input: { command: /test/ } }])
 */
export function toolSequence(
  ctx: JudgeContext,
  expected: readonly ToolSequenceStep[],
  options: ToolSequenceOptions = {},
): ToolSequenceScore {
  const steps = parseSteps(expected);
  const { succeeded = false, sessionID } = parseOptions("toolSequence", ToolSequenceOptionsSchema, options);
  const calls = ctx.recording
    .tools(sessionID ? { sessionID } : undefined)
    .filter((call) => !succeeded || call.status === "succeeded");
  const matched: ToolSequenceScore["measurements"]["matched"] = [];
  let next = 0;
  for (const [index, step] of steps.entries()) {
    const found = calls.findIndex((call, callIndex) => callIndex >= next && matchesStep(call, step));
    if (found === -1) break;
    matched.push({ step: index + 1, callId: calls[found]!.id, callIndex: found });
    next = found + 1;
  }
  const missingStep = matched.length === steps.length ? null : matched.length + 1;
  const described = steps.map((step) => ({ name: step.name, input: step.input ? describePattern(step.input) : null }));
  return {
    value: missingStep === null,
    reason: explain(described, matched, missingStep, calls.length),
    measurements: {
      expected: described,
      matched,
      missingStep,
      calls: calls.map((call) => call.name),
      succeededOnly: succeeded,
    },
  };
}

function parseSteps(
  expected: readonly ToolSequenceStep[],
): { name: string; input?: { [key: string]: InputPattern } }[] {
  const parsed = z.array(StepSchema).min(1).safeParse(expected);
  if (!parsed.success) throw new ScorerError("toolSequenceInvalid");
  return parsed.data.map((step) => (typeof step === "string" ? { name: step } : step));
}

function matchesStep(call: JudgeToolCall, step: { name: string; input?: { [key: string]: InputPattern } }): boolean {
  return call.name === step.name && (step.input === undefined || matchesPartially(call.input, step.input));
}

function explain(
  expected: { name: string; input: unknown }[],
  matched: ToolSequenceScore["measurements"]["matched"],
  missingStep: number | null,
  calls: number,
): string {
  if (missingStep === null) return `all ${expected.length} expected calls were made in order (of ${calls} calls)`;
  const step = expected[missingStep - 1]!;
  const what = step.input === null ? step.name : `${step.name} ${JSON.stringify(step.input)}`;
  const after = matched.length === 0 ? "" : ` after call ${matched.at(-1)!.callIndex + 1}`;
  return `matched ${matched.length} of ${expected.length} expected calls; no call${after} matched step ${missingStep} (${what}) (of ${calls} calls)`;
}
