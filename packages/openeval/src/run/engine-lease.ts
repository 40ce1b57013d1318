// Placing one piece of slot work on the run's engine pool: a lease on the engine with the most free capacity, the
// runner's signal joined with the engine's loss, and, when no engine of the pool can take it, why (the work is then
// recorded interrupted, to be redone by the next run).
import type { EngineLease, EnginePool } from "../sandbox/index.ts";

export type Placement =
  | { kind: "placed"; lease: EngineLease; signal: AbortSignal }
  | { kind: "unplaced"; problem: string }
  /** The runner is stopping: nothing new starts. */
  | { kind: "stopping" };

export async function placeOnEngine(engines: EnginePool, signal: AbortSignal | undefined): Promise<Placement> {
  try {
    const lease = await engines.acquire(signal);
    return { kind: "placed", lease, signal: signal ? AbortSignal.any([signal, lease.lost]) : lease.lost };
  } catch (error) {
    if (signal?.aborted) return { kind: "stopping" };
    return { kind: "unplaced", problem: (error as Error).message };
  }
}
