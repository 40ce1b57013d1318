// SIGINT / SIGTERM while work runs. The first one stops the run: no new work starts,
// every candidate, judge and check is stopped and recorded `interrupted`, the summary is written, and the command
// exits 128 + the signal's number (130, 143). A terminal's Ctrl-C reaches every process of its group and the npm
// wrapper forwards what it gets, so one keypress can arrive twice: repeats within a second are the same request.
// Another one later forces: scratch folders are removed and the process exits at once; the kernel then kills
// every child tied to it (sandbox/tie-to-runner.ts) and the next run's recovery records them interrupted.
import { constants } from "node:os";
import { removeOwnScratchDirsSync } from "../util/scratch-dir.ts";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** Signals closer together than this are one request (a keypress delivered to the group and forwarded). */
const REPEAT_WINDOW_MS = 1_000;

export interface StopSignals {
  /** Aborted at the first stop signal. */
  signal: AbortSignal;
  /** The signal that stopped the run, if any. */
  received(): NodeJS.Signals | null;
  /** The exit code for a stopped run: 128 + the signal number. */
  exitCode(): number | null;
  dispose(): void;
}

export function handleStopSignals(notify: (message: string) => void): StopSignals {
  const controller = new AbortController();
  let first: { name: NodeJS.Signals; at: number } | null = null;
  const onSignal = (name: NodeJS.Signals) => {
    const now = Date.now();
    if (first === null) {
      first = { name, at: now };
      notify(
        `${name}: stopping — no new work starts; running candidates and judges are stopped and recorded as interrupted (retryable). Press Ctrl-C again to quit at once.`,
      );
      controller.abort(new Error(`stopped by ${name}`));
      return;
    }
    if (now - first.at < REPEAT_WINDOW_MS) return;
    notify(`${name} again: quitting now; the next openeval run records the unfinished work as interrupted.`);
    removeOwnScratchDirsSync();
    process.exit(exitCodeOf(first.name));
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    signal: controller.signal,
    received: () => first?.name ?? null,
    exitCode: () => (first ? exitCodeOf(first.name) : null),
    dispose: () => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}

function exitCodeOf(name: NodeJS.Signals): number {
  return 128 + constants.signals[name];
}
