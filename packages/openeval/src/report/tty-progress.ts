// Live progress on a terminal: the plain lines scroll above one status line that is redrawn in place —
// done/running/queued, spend, elapsed and ETA. The line is cut to the terminal's width (a wrapped line cannot be
// redrawn in place; 80 columns when the terminal reports 0) and redrawn every second, so elapsed time and ETA move
// during a long candidate. Only for a terminal: elsewhere the plain reporter writes lines without `\r`.
import type { EngineCounts, ProviderBackoff, RunnerEvent } from "../summary/index.ts";
import { terminalWidth } from "../util/terminal-width.ts";
import { createPlainReporter } from "./plain-reporter.ts";

type QueueState = Omit<Extract<RunnerEvent, { type: "queue.changed" }>, "type">;

/** How often the status line is redrawn without an event. */
export const REDRAW_INTERVAL_MS = 1_000;

export function createTtyProgress(
  stream: { write(text: string): unknown; columns?: number },
  now = () => Date.now(),
): (event: RunnerEvent) => void {
  const started = now();
  let ticker: ReturnType<typeof setInterval> | undefined;
  let state: QueueState = { running: 0, queued: 0, done: 0, runningSince: [], doneMs: 0 };
  let spendUSD = 0;
  let engines: EngineCounts[] = [];
  /** Each provider's last change of share, while below its full share. */
  const providers = new Map<string, ProviderBackoff>();
  let status = "";
  const plain = createPlainReporter((line) => {
    clear();
    stream.write(`${line}\n`);
  });
  const clear = () => {
    if (status) stream.write("\r\x1b[2K");
  };
  const redraw = () => {
    clear();
    const elapsed = now() - started;
    const total = state.done + state.running + state.queued;
    const remaining = estimateRemainingMs(state, now());
    const eta = remaining === null ? "—" : formatDuration(remaining);
    const line = `[${state.done}/${total}] running ${state.running}, queued ${state.queued}${describeEngines(engines)}${describeProviders(providers)} · spent $${spendUSD.toFixed(4)} · ${formatDuration(elapsed)} elapsed · ETA ${eta}`;
    status = truncate(line, terminalWidth(stream.columns) - 1);
    stream.write(status);
  };
  return (event) => {
    if (event.type === "queue.changed") state = event;
    if (event.type === "engines.changed") engines = event.engines;
    if (event.type === "provider.backoff") {
      const waiting = event.change === "lowered" || event.change === "held";
      if (event.limit >= event.max && !waiting) providers.delete(event.provider);
      else providers.set(event.provider, event);
    }
    // Spend: candidates, then their judges and earlyStop checks.
    if (event.type === "candidate.finished") spendUSD += event.evalRun.metrics?.cost.usd ?? 0;
    if (event.type === "judge.finished" && event.judgeRun.decidedEarly === undefined)
      spendUSD += event.judgeRun.costUSD ?? 0;
    if (event.type === "check.finished") spendUSD += event.check.costUSD ?? 0;
    if (event.type === "run.finished") {
      clearInterval(ticker);
      clear();
      status = "";
      return;
    }
    // unref: a run that ends by an error must not be kept alive by its progress display.
    ticker ??= setInterval(redraw, REDRAW_INTERVAL_MS).unref();
    plain(event);
    redraw();
  };
}

/**
 * Time left, null before anything is done: each queued item takes the mean run time of the done ones, and each
 * running item what is left of that mean after the time it has already run; the work is shared by the running lanes.
 */
export function estimateRemainingMs(state: QueueState, at: number): number | null {
  if (state.done === 0) return null;
  const mean = state.doneMs / state.done;
  const runningLeft = state.runningSince.reduce((sum, since) => sum + Math.max(0, mean - (at - since)), 0);
  return (state.queued * mean + runningLeft) / Math.max(1, state.runningSince.length);
}

/**
 * A pool of several engines, each as `name running/capacity` (queued waiting for its images, failed, lost); one
 * engine says nothing the queue does not.
 * @example describeEngines([a, b]) // " · engines a 2/4, b 1/4 +1 queued, c lost"
 */
export function describeEngines(engines: readonly EngineCounts[]): string {
  if (engines.length < 2) return "";
  const each = engines.map((engine) => {
    if (engine.health !== "ok") return `${engine.name} ${engine.health}`;
    const parts = [`${engine.name} ${engine.running}/${engine.capacity ?? "∞"}`];
    if (engine.queued > 0) parts.push(`+${engine.queued} queued`);
    if (engine.failed > 0) parts.push(`${engine.failed} failed`);
    return parts.join(" ");
  });
  return ` · engines ${each.join(", ")}`;
}

/**
 * Providers below their full share, each as `provider limit/max`, with "waiting" while new candidates wait for
 * OpenCode's retry.
 * @example describeProviders(new Map([["local", lowered]])) // " · local 2/4 waiting"
 */
export function describeProviders(providers: ReadonlyMap<string, ProviderBackoff>): string {
  if (providers.size === 0) return "";
  const each = [...providers.values()].map((backoff) => {
    const waiting = backoff.change === "lowered" || backoff.change === "held" ? " waiting" : "";
    return `${backoff.provider} ${backoff.limit}/${backoff.max}${waiting}`;
  });
  return ` · ${each.join(", ")}`;
}

/** Cut to `width` characters (code points), marking the cut with an ellipsis. */
function truncate(line: string, width: number): string {
  const characters = [...line];
  return characters.length <= width ? line : `${characters.slice(0, Math.max(0, width - 1)).join("")}…`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}
