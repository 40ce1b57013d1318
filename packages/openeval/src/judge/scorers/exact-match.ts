// exactMatch(): the final answer equals an expected string. Deterministic, no model.
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { ScorerError } from "./errors.ts";
import { parseOptions } from "./parse-options.ts";
import { quote } from "./quote.ts";

const ExactMatchOptionsSchema = z.strictObject({ trim: z.boolean().optional(), caseSensitive: z.boolean().optional() });

export interface ExactMatchOptions {
  /** Compare without leading and trailing whitespace (a trailing newline is common). Default true. */
  trim?: boolean;
  /** Default true: "Apple" does not match "APPLE". */
  caseSensitive?: boolean;
}

export interface ExactMatchScore {
  value: boolean;
  reason: string;
  measurements: { expected: string; received: string; trim: boolean; caseSensitive: boolean };
}

/**
 * @example
 * export default (ctx: JudgeContext) => ({ scores: { correct: exactMatch(ctx, "APPLE") } });
 */
export function exactMatch(ctx: JudgeContext, expected: string, options: ExactMatchOptions = {}): ExactMatchScore {
  if (typeof expected !== "string") throw new ScorerError("expectedNotString", { got: typeof expected });
  const { trim = true, caseSensitive = true } = parseOptions("exactMatch", ExactMatchOptionsSchema, options);
  const prepare = (text: string) => {
    const trimmed = trim ? text.trim() : text;
    return caseSensitive ? trimmed : trimmed.toLowerCase();
  };
  const received = ctx.response.text;
  const value = prepare(received) === prepare(expected);
  const how = [trim ? "trimmed" : "untrimmed", caseSensitive ? "case-sensitive" : "ignoring case"].join(", ");
  return {
    value,
    reason: value
      ? `the response equals ${quote(expected)} (${how})`
      : `expected ${quote(expected)}, the response is ${quote(received)} (${how})`,
    measurements: {
      expected,
      received: received.length > 2000 ? `${received.slice(0, 2000)}…` : received,
      trim,
      caseSensitive,
    },
  };
}
