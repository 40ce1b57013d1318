// Live progress on a terminal: the plain lines scroll above one status line that is redrawn in place —
// done/running/queued, spend, elapsed and ETA. The line is cut to the terminal's width (a wrapped line cannot be
// redrawn in place) and redrawn every second, so elapsed time and ETA move during a long candidate.
import type { RunnerEvent } from "../run/index.ts";
import { createPlainReporter } from "./plain-reporter.ts";

/** How often the status line is redrawn without an event. */
export const REDRAW_INTERVAL_MS = 1_000;

export function createTtyProgress(stream: { write(text: string): unknown; columns?: number }, now = () => Date.now()): (event: RunnerEvent) => void {
  const started = now();
  let ticker: ReturnType<typeof setInterval> | undefined;
  let state = { running: 0, queued: 0, done: 0 };
  let spendUSD = 0;
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
    const eta = state.done === 0 ? "—" : formatDuration((elapsed / state.done) * (state.running + state.queued));
    const line = `[${state.done}/${total}] running ${state.running}, queued ${state.queued} · spent $${spendUSD.toFixed(4)} · ${formatDuration(elapsed)} elapsed · ETA ${eta}`;
    status = truncate(line, (stream.columns ?? 80) - 1);
    stream.write(status);
  };
  return (event) => {
    if (event.type === "queue.changed") state = { running: event.running, queued: event.queued, done: event.done };
    // Spend: candidates, then their judges and earlyStop checks.
    if (event.type === "candidate.finished") spendUSD += event.evalRun.metrics?.cost.usd ?? 0;
    if (event.type === "judge.finished" && event.judgeRun.decidedEarly === undefined) spendUSD += event.judgeRun.costUSD ?? 0;
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

/** Cut to `width` characters (code points), marking the cut with an ellipsis. */
function truncate(line: string, width: number): string {
  const characters = [...line];
  return characters.length <= width ? line : `${characters.slice(0, Math.max(0, width - 1)).join("")}…`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}
