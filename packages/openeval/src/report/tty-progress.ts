// Live progress on a terminal: the plain lines scroll above one status line that is redrawn in place —
// done/running/queued, spend, elapsed and ETA.
import type { RunnerEvent } from "../run/index.ts";
import { createPlainReporter } from "./plain-reporter.ts";

export function createTtyProgress(stream: { write(text: string): unknown }, now = () => Date.now()): (event: RunnerEvent) => void {
  const started = now();
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
    status = `[${state.done}/${total}] running ${state.running}, queued ${state.queued} · spent $${spendUSD.toFixed(4)} · ${formatDuration(elapsed)} elapsed · ETA ${eta}`;
    stream.write(status);
  };
  return (event) => {
    if (event.type === "queue.changed") state = { running: event.running, queued: event.queued, done: event.done };
    // Spend: candidates, then their judges and earlyStop checks.
    if (event.type === "candidate.finished") spendUSD += event.evalRun.metrics?.cost.usd ?? 0;
    if (event.type === "judge.finished" && event.judgeRun.decidedEarly === undefined) spendUSD += event.judgeRun.costUSD ?? 0;
    if (event.type === "check.finished") spendUSD += event.check.costUSD ?? 0;
    if (event.type === "run.finished") {
      clear();
      status = "";
      return;
    }
    plain(event);
    redraw();
  };
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}
