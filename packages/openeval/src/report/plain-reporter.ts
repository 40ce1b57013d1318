// Plain progress lines (one per event that matters), for logs and non-TTY output.
import { describeSlot } from "../plan/index.ts";
import { describeOutcome } from "../records/index.ts";
import type { EngineCounts, ProviderBackoff, RunnerEvent } from "../summary/index.ts";
import { describeState } from "../util/words.ts";

export function createPlainReporter(write: (line: string) => void): (event: RunnerEvent) => void {
  /** Each engine's health as last reported: a line is written when it changes, not on every count. */
  const health = new Map<string, EngineCounts["health"]>();
  return (event) => {
    switch (event.type) {
      case "engines.changed":
        for (const engine of event.engines) {
          if ((health.get(engine.name) ?? "ok") !== engine.health) write(describeEngineHealth(engine));
          health.set(engine.name, engine.health);
        }
        break;
      case "run.started": {
        const counts = new Map<string, number>();
        for (const slot of event.slots) counts.set(slot.action, (counts.get(slot.action) ?? 0) + 1);
        const plan = [...counts].map(([action, count]) => `${count} ${action}`).join(", ");
        write(`${event.resumed ? "Resuming" : "Starting"} run ${event.runId}: ${plan}`);
        break;
      }
      case "candidate.finished": {
        const run = event.evalRun;
        const detail = run.error ? ` (${run.error})` : "";
        // Where it ran says something only in a pool of several engines.
        const engine = run.input.engine && health.size > 1 ? ` on engine ${run.input.engine}` : "";
        write(
          `candidate ${describeSlot(event.slot)}: ${describeOutcome(run)} in ${formatSeconds(run.elapsedMs)}${engine}, eval run ${run.id}${detail}`,
        );
        break;
      }
      case "judge.finished": {
        const run = event.judgeRun;
        const scores = Object.entries(run.scores ?? {}).map(([id, score]) => `${id}=${score.value ?? "unresolved"}`);
        const detail =
          run.state === "completed"
            ? run.unscored
              ? "unscored"
              : scores.join(" ")
            : `${describeState(run.state)}: ${run.error}`;
        write(`judge     ${describeSlot(event.slot)}: ${detail}`);
        break;
      }
      case "check.finished": {
        const { check } = event;
        const detail =
          check.outcome === "decided"
            ? "every criterion decided; stopping the candidate"
            : `${check.outcome}${check.reason ? `: ${check.reason}` : ""}`;
        write(`check     ${describeSlot(event.slot)}, check ${check.check}: ${detail}`);
        break;
      }
      case "notice":
        write(event.message);
        break;
      case "provider.backoff":
        write(describeProviderBackoff(event));
        break;
      default:
        break;
    }
  };
}

function describeEngineHealth(engine: EngineCounts): string {
  if (engine.health === "ok") return `Engine "${engine.name}" (${engine.address}) answers again: work is placed on it`;
  const state = engine.health === "lost" ? "lost" : "unusable for this run";
  return `Engine "${engine.name}" (${engine.address}) ${state}: ${engine.problem}; its running work is interrupted, and no more is placed on it${engine.health === "lost" ? " until it answers again" : ""}`;
}

/**
 * One line per change of a provider's share of the candidates.
 * @example describeProviderBackoff({ provider: "local", change: "lowered", limit: 2, max: 4, reason: "rate_limited", message: "Too Many Requests", retryAfterMs: null })
 * // 'Provider local rate limited ("Too Many Requests"): at most 2 of 4 candidates at once; new ones wait for OpenCode\'s retry'
 */
export function describeProviderBackoff(backoff: ProviderBackoff): string {
  const { provider, limit, max } = backoff;
  const share = `at most ${limit} of ${max} candidates at once`;
  const answered = `${backoff.reason === "unavailable" ? "unavailable" : "rate limited"} ("${backoff.message ?? ""}")`;
  switch (backoff.change) {
    case "lowered":
      return `Provider ${provider} ${answered}: ${share}; new ones wait for OpenCode's retry`;
    case "held":
      return `Provider ${provider} ${answered} again: new candidates wait for OpenCode's retry (${share})`;
    case "resumed":
      return `Provider ${provider}: retried after ${formatSeconds(backoff.retryAfterMs)}; new candidates start again (${share})`;
    case "raised":
      return `Provider ${provider} answers: ${share}`;
    case "recovered":
      return `Provider ${provider} recovered: back to ${limit} of ${max} candidates at once`;
  }
}

export function formatSeconds(ms: number | null): string {
  return ms === null ? "—" : `${(ms / 1000).toFixed(1)} s`;
}
