// Where an eval run's time goes, phase by phase (container start, copy-in, OpenCode's start, ...): published on a
// diagnostics channel, so it costs one check when nothing subscribes (nothing in a run does; `npm run bench` does).
import { channel } from "node:diagnostics_channel";

/** The channel's name: subscribe with node:diagnostics_channel to receive every PhaseTiming. */
export const PHASE_CHANNEL = "openeval:phase";

export interface PhaseTiming {
  /** Whose phase it is: the eval run's id. */
  owner: string;
  phase: string;
  /** performance.now() at the start and the end, in ms. */
  startMs: number;
  endMs: number;
}

const phases = channel(PHASE_CHANNEL);

/** Publishes a phase that ran from `startMs` (performance.now()) until now. */
export function recordPhase(owner: string, phase: string, startMs: number): void {
  if (!phases.hasSubscribers) return;
  phases.publish({ owner, phase, startMs, endMs: performance.now() } satisfies PhaseTiming);
}

/**
 * Runs `work` and publishes how long it took as `phase` of `owner` (also when it fails).
 * @example
 * const sandbox = await timePhase(evalRunId, "container.create", () => engine.create(spec));
 */
export async function timePhase<T>(owner: string, phase: string, work: () => Promise<T>): Promise<T> {
  const startMs = performance.now();
  try {
    return await work();
  } finally {
    recordPhase(owner, phase, startMs);
  }
}
