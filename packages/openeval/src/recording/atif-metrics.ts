// The usage side of the ATIF mapping (atif.ts): a step's tokens and cost, and a trajectory's totals. ATIF counts every
// input token in prompt_tokens (cached ones too) and reasoning in completion_tokens; OpenCode keeps input, cache reads,
// cache writes, output and reasoning apart, so those splits go to `extra`.
import type { AtifMetrics, AtifStep, AtifTrajectory } from "./atif-schema.ts";
import type { JudgeContext } from "./judge-context.ts";
import type { NativeMessage, NativeSession } from "./native-archive.ts";

interface MessageTokens {
  total?: number;
  input?: number;
  output?: number;
  reasoning?: number;
  cache?: { read?: number; write?: number };
}

/** A step without reported usage (OpenCode's zeros without `total`) has no metrics rather than zeros. */
export function stepMetrics(info: NativeMessage["info"]): AtifMetrics | undefined {
  const tokens = info.tokens as MessageTokens | undefined;
  if (tokens?.total === undefined) return undefined;
  const cacheRead = tokens.cache?.read ?? 0;
  const cacheWrite = tokens.cache?.write ?? 0;
  const reasoning = tokens.reasoning ?? 0;
  return {
    prompt_tokens: (tokens.input ?? 0) + cacheRead + cacheWrite,
    completion_tokens: (tokens.output ?? 0) + reasoning,
    cached_tokens: cacheRead,
    ...(typeof info.cost === "number" ? { cost_usd: info.cost } : {}),
    extra: { reasoning_tokens: reasoning, cache_write_tokens: cacheWrite },
  };
}

/** The eval run's totals (every session's, as Harbor's own agents count subagents in the parent's final metrics). */
export function runTotals(ctx: JudgeContext, steps: number): AtifTrajectory["final_metrics"] {
  const { tokens, cost, requests, tools, timing } = ctx.metrics;
  const known = (value: number | null) => value ?? 0;
  const usage = tokens.input !== null;
  return {
    ...(usage
      ? {
          total_prompt_tokens: known(tokens.input) + known(tokens.cacheRead) + known(tokens.cacheWrite),
          total_completion_tokens: known(tokens.output) + known(tokens.reasoning),
          total_cached_tokens: known(tokens.cacheRead),
        }
      : {}),
    ...(cost.usd !== null ? { total_cost_usd: cost.usd } : {}),
    total_steps: steps,
    extra: {
      includes_subagents: true,
      reasoning_tokens: tokens.reasoning,
      cache_write_tokens: tokens.cacheWrite,
      model_steps: requests?.started ?? null,
      failed_model_steps: requests?.failed ?? null,
      tool_calls: {
        calls: tools.calls,
        succeeded: tools.succeeded,
        failed: tools.failed,
        unfinished: tools.unfinished,
      },
      compactions: ctx.metrics.compactions?.started ?? null,
      elapsed_ms: timing.elapsedMs,
      model_active_ms: timing.modelActiveMs,
    },
  };
}

/** A subagent's own totals, from its session row (OpenCode's running sums over its messages). */
export function sessionTotals(session: NativeSession, steps: readonly AtifStep[]): AtifTrajectory["final_metrics"] {
  const metrics = steps.flatMap((step) => (step.metrics ? [step.metrics] : []));
  const sum = (pick: (metrics: AtifMetrics) => number | undefined) =>
    metrics.reduce((total, step) => total + (pick(step) ?? 0), 0);
  return {
    ...(metrics.length > 0
      ? {
          total_prompt_tokens: sum((step) => step.prompt_tokens),
          total_completion_tokens: sum((step) => step.completion_tokens),
          total_cached_tokens: sum((step) => step.cached_tokens),
        }
      : {}),
    ...(session.cost !== null ? { total_cost_usd: session.cost } : {}),
    total_steps: steps.length,
  };
}
