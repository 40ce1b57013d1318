// Checks a recording's archived OpenCode database against the event stream the harness read from OpenCode's stdout
// on this machine: the agent can edit the database while it runs, never the stream. The database recording less
// than the stream saw is a forgery; the rule and its one tolerance are in docs/design/recording-integrity.md.
import type { StreamLedger, StreamStep, TokenCounts } from "../opencode/index.ts";
import type { RecordingMismatch, RunMetrics } from "../records/index.ts";
import type { NativeExtract, RecordedStep } from "./native-extract.ts";

export interface StreamComparison {
  /** What the database records less of than the stream, per session; empty when it agrees. */
  mismatches: RecordingMismatch[];
  /** The usage the stream saw and the database lacks: added to the metrics, so the recorded spend is never below it. */
  shortfall: { usd: number; tokens: TokenCounts };
}

export interface CompareOptions {
  /** The process was killed: it may have published a step's finish and died before storing the message's totals. */
  killed: boolean;
}

const TOKEN_QUANTITIES = [
  ["input", "input tokens"],
  ["output", "output tokens"],
  ["reasoning", "reasoning tokens"],
  ["cacheRead", "cache read tokens"],
  ["cacheWrite", "cache write tokens"],
] as const satisfies readonly (readonly [keyof TokenCounts, RecordingMismatch["quantity"]])[];

/** Sums differ in the last bits with the order of additions; a forgery moves whole steps. */
const USD_TOLERANCE = 1e-9;

/**
 * Every step and tool call the stream showed must be in the database, and each step's cost and tokens there must be
 * at least the stream's. The database may hold more: subagent sessions are not in the stream, and a kill can cut its
 * last lines.
 *
 * @example
 * compareWithStream(extractNative(archived), outcome.stream, { killed: false }).mismatches // [] for an untouched run
 */
export function compareWithStream(
  native: Pick<NativeExtract, "steps" | "tools">,
  stream: StreamLedger,
  options: CompareOptions,
): StreamComparison {
  const recorded = new Map(native.steps.map((step) => [step.messageID, step]));
  const recordedTools = new Set(native.tools.map((tool) => tool.id));
  const shortfall = { usd: 0, tokens: zeroTokens() };
  const mismatches: RecordingMismatch[] = [];
  const sessions = new Set([
    ...stream.steps.map((step) => step.sessionID),
    ...stream.tools.map((tool) => tool.sessionID),
  ]);
  for (const sessionID of sessions) {
    const inSession = native.steps.filter((step) => step.sessionID === sessionID);
    const seen = [
      ...Map.groupBy(
        stream.steps.filter((step) => step.sessionID === sessionID),
        (step) => step.messageID,
      ),
    ];
    const lastRecorded = inSession.at(-1)?.messageID;
    const streamTotals = { usd: 0, tokens: zeroTokens() };
    const recordedTotals = { usd: 0, tokens: zeroTokens() };
    const lacking = { usd: false, tokens: new Set<keyof TokenCounts>() };
    const missingSteps: string[] = [];
    for (const [messageID, steps] of seen) {
      const saw = usageSeen(steps);
      const step = recorded.get(messageID);
      if (step?.sessionID !== sessionID) missingSteps.push(messageID);
      const has = usageRecorded(step?.sessionID === sessionID ? step : undefined);
      addUsage(streamTotals, saw);
      addUsage(recordedTotals, has);
      const lagging = options.killed && messageID === lastRecorded && step?.finish === null;
      if (saw.usd - has.usd > USD_TOLERANCE) {
        shortfall.usd += saw.usd - has.usd;
        if (!lagging) lacking.usd = true;
      }
      for (const [key] of TOKEN_QUANTITIES) {
        if (saw.tokens[key] <= has.tokens[key]) continue;
        shortfall.tokens[key] += saw.tokens[key] - has.tokens[key];
        if (!lagging) lacking.tokens.add(key);
      }
    }
    const seenTools = stream.tools.filter((tool) => tool.sessionID === sessionID);
    const missingTools = seenTools
      .filter((tool) => !recordedTools.has(tool.id))
      .map((tool) => `${tool.tool} ${tool.id}`);
    const recordedToolCount = native.tools.filter((tool) => tool.sessionID === sessionID).length;
    const mismatch = (quantity: RecordingMismatch["quantity"], saw: number, has: number, missing?: string[]) =>
      mismatches.push({ sessionID, quantity, stream: saw, database: has, ...(missing ? { missing } : {}) });
    if (missingSteps.length > 0) mismatch("steps", seen.length, inSession.length, missingSteps);
    if (missingTools.length > 0) mismatch("tool calls", seenTools.length, recordedToolCount, missingTools);
    if (lacking.usd) mismatch("cost", streamTotals.usd, recordedTotals.usd);
    for (const [key, quantity] of TOKEN_QUANTITIES)
      if (lacking.tokens.has(key)) mismatch(quantity, streamTotals.tokens[key], recordedTotals.tokens[key]);
  }
  return { mismatches, shortfall };
}

/**
 * The metrics with the usage the database lacks added back. A model without pricing keeps its unknown cost: OpenCode
 * prices it at $0 in the stream too, so there is no cost shortfall.
 */
export function addShortfall(metrics: RunMetrics, shortfall: StreamComparison["shortfall"]): RunMetrics {
  const tokens = { ...metrics.tokens };
  for (const [key] of TOKEN_QUANTITIES)
    if (shortfall.tokens[key] > 0) tokens[key] = (tokens[key] ?? 0) + shortfall.tokens[key];
  const usd = shortfall.usd === 0 ? metrics.cost.usd : (metrics.cost.usd ?? 0) + shortfall.usd;
  return { ...metrics, cost: { ...metrics.cost, usd }, tokens };
}

/** A message's cost accumulates over its step finishes; its tokens are the last one's (OpenCode replaces them). */
function usageSeen(steps: readonly StreamStep[]): { usd: number; tokens: TokenCounts } {
  return { usd: steps.reduce((sum, step) => sum + step.usd, 0), tokens: steps.at(-1)!.tokens };
}

function usageRecorded(step: RecordedStep | undefined): { usd: number; tokens: TokenCounts } {
  const usage = step?.usage;
  if (!usage) return { usd: 0, tokens: zeroTokens() };
  return {
    usd: usage.usd ?? 0,
    tokens: {
      input: usage.input,
      output: usage.output,
      reasoning: usage.reasoning,
      cacheRead: usage.cacheRead,
      cacheWrite: usage.cacheWrite,
    },
  };
}

function addUsage(total: { usd: number; tokens: TokenCounts }, usage: { usd: number; tokens: TokenCounts }): void {
  total.usd += usage.usd;
  for (const [key] of TOKEN_QUANTITIES) total.tokens[key] += usage.tokens[key];
}

function zeroTokens(): TokenCounts {
  return { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
}
