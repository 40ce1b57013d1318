// One container engine of a run's pool as the pool reports it and the runner's events carry it: the sandbox stage
// counts, the reporters read. Here because both sides need the one shape and neither may import the other.

export type EngineHealth = "ok" | "lost" | "unusable";

export interface EngineState {
  name: string;
  address: string;
  /** Sandboxes it may run at once; null: bounded by the run's concurrency only. */
  capacity: number | null;
  /** Work running there. */
  running: number;
  /** Placed there, waiting for its images. */
  queued: number;
  /** Work there that ended failed or was cut short by the engine. */
  failed: number;
  done: number;
  health: EngineHealth;
  /** Why it is lost or unusable. */
  problem: string | null;
}
