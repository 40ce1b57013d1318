// RunMetrics of a candidate run, computed from the model steps, tool calls and markers that
// native-extract.ts read out of OpenCode's database. Pure arithmetic: no SQLite, no OpenCode shapes.
import { METRICS_VERSION, measureTools } from "./metrics.ts";
import type { ToolCall } from "./schema.ts";
import type { RunMetrics } from "../records/index.ts";

/** RunMetrics without `timing.elapsedMs`, which only the runner knows. */
export type NativeMetrics = Omit<RunMetrics, "timing"> & {
  timing: { modelActiveMs: number | null; outputTokensPerSecond: number | null };
};

/** One model step: an OpenCode assistant message of any session (root, subagent child, compaction summary). */
export interface ModelStep {
  /** What the provider reported for this step; null when it reported nothing. */
  usage: StepUsage | null;
  /** `time.created` / `time.completed`; completed is null while the step never finished. */
  created: number | null;
  completed: number | null;
  /**
   * The attempt failed: it ended with an error (API error after retries, abort, …), or the provider rejected it and
   * OpenCode moved on (a context overflow it compacts past leaves an empty step without a finish reason).
   */
  failed: boolean;
  /** How the step ended (`stop`, `tool-calls`, `length`, …); null when OpenCode recorded none. */
  finish?: string | null;
  /** The step produced output (text, reasoning, a tool call). Default true. */
  producedOutput?: boolean;
  /** First to last byte of the step's streamed output (epoch ms); null or absent when nothing datable streamed. */
  generating?: readonly [number, number] | null;
}

export interface StepUsage {
  usd: number | null;
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface NativeRunFacts {
  /** Each assistant message exactly once: summing these never double-counts a step (session rows hold subtotals). */
  steps: readonly ModelStep[];
  tools: readonly ToolCall[];
  compactions: number;
  /** null: nothing recorded either way. */
  retries: number | null;
  /**
   * false: the model has no pricing (a configured provider model without `cost`): OpenCode then records $0, which is
   * not a price, so the cost is unknown. Default true.
   */
  priced?: boolean;
}

/**
 * @example
 * measureNative({ steps: [{ usage: { usd: 0.01, input: 900, output: 40, reasoning: 0, cacheRead: 100, cacheWrite: 0 },
 *   created: 0, completed: 3000, failed: false, generating: [1000, 3000] }], tools: [], compactions: 0, retries: 0 }).timing.outputTokensPerSecond // 20
 */
export function measureNative(facts: NativeRunFacts): NativeMetrics {
  const { cost, tokens } = sumUsage(facts.steps, facts.priced ?? true);
  return {
    version: METRICS_VERSION,
    cost,
    tokens,
    tools: measureTools(facts.tools),
    requests: {
      started: facts.steps.length,
      succeeded: facts.steps.filter((step) => step.completed !== null && !step.failed).length,
      failed: facts.steps.filter((step) => step.failed).length,
      retries: facts.retries,
      finishReasons: countFinishReasons(facts.steps),
    },
    compactions: facts.compactions,
    truncated: facts.steps.filter((step) => step.finish === "length").length,
    timing: measureGeneration(facts.steps),
  };
}

/**
 * Model-active time: the union of the steps' generation spans (first to last byte of each streamed answer), so
 * parallel subagent steps count once. Output tokens per second: the output tokens of the steps with a span over the
 * sum of their spans (each step's own rate, weighted by its length). See docs/metrics.md.
 */
function measureGeneration(steps: readonly ModelStep[]): NativeMetrics["timing"] {
  const spanned = steps.flatMap((step) =>
    step.generating ? [{ span: step.generating, output: step.usage?.output ?? null }] : [],
  );
  if (spanned.length === 0) return { modelActiveMs: null, outputTokensPerSecond: null };
  const generatingMs = spanned.reduce((sum, { span }) => sum + (span[1] - span[0]), 0);
  const outputs = spanned.flatMap(({ output }) => (output === null ? [] : [output]));
  const output = outputs.reduce((sum, tokens) => sum + tokens, 0);
  return {
    modelActiveMs: unionLength(spanned.map(({ span }) => span)),
    outputTokensPerSecond: outputs.length === 0 || generatingMs === 0 ? null : output / (generatingMs / 1000),
  };
}

function countFinishReasons(steps: readonly ModelStep[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of steps) {
    const reason = step.failed ? "error" : (step.finish ?? (step.completed === null ? "unfinished" : "none"));
    counts[reason] = (counts[reason] ?? 0) + 1;
  }
  return counts;
}

/** Sums over the steps that reported usage; null (unavailable) when none did, so a reported 0 stays distinguishable. */
function sumUsage(steps: readonly ModelStep[], priced: boolean): Pick<NativeMetrics, "cost" | "tokens"> {
  const reported = steps.flatMap((step) => (step.usage ? [step.usage] : []));
  const prices = priced ? reported.flatMap((usage) => (usage.usd === null ? [] : [usage.usd])) : [];
  const total = (key: Exclude<keyof StepUsage, "usd">) =>
    reported.length === 0 ? null : reported.reduce((sum, usage) => sum + usage[key], 0);
  return {
    cost: { usd: prices.length === 0 ? null : prices.reduce((sum, usd) => sum + usd, 0) },
    tokens: {
      input: total("input"),
      output: total("output"),
      reasoning: total("reasoning"),
      cacheRead: total("cacheRead"),
      cacheWrite: total("cacheWrite"),
    },
  };
}

/** Total length covered by [start, end] intervals, overlaps counted once. */
export function unionLength(intervals: readonly (readonly [number, number])[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const [start, end] of sorted) {
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  return covered;
}
