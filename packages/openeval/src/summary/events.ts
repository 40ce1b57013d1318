// The runner's typed lifecycle events and the summary it ends with (the one readResults gives). The runner never
// prints: reporters subscribe to these.
import type { AdaptiveProgress } from "./adaptive-rounds.ts";
import type { PlannedSlot } from "../plan/index.ts";
import type { EngineState } from "../util/engine-state.ts";
import type { InputChangeRecord } from "./input-changes.ts";
import type { ReviewStanding } from "./apply-reviews.ts";
import type { InvariantReport } from "./invariant-standings.ts";
import type { IntegrityFinding, IntegrityProblem } from "../records/index.ts";
import type { IntegritySeverity } from "../load/index.ts";
import type { EarlyCheck, EvalRunOutcome, EvalRun, JudgeRun, SlotKey } from "../records/index.ts";
import type {
  CategoryScore,
  CriterionAgreement,
  CostAndTime,
  ModelPairComparison,
  ModelSummary,
  PairedComparison,
  PassK,
  ScoreInterval,
  SlotFingerprint,
  Verdict,
} from "../results/index.ts";

/** The run's work queue as the runner reports it on every change. */
export interface WorkQueueState {
  running: number;
  queued: number;
  done: number;
  /** When each running item started (epoch ms): an ETA counts the time they have already run. */
  runningSince: number[];
  /** The done items' run times, summed (ms). */
  doneMs: number;
}

/** One container engine of the run's pool as the runner reports it on every change. */
export type EngineCounts = EngineState;

export type RunnerEvent =
  | {
      type: "run.started";
      runId: string;
      directory: string;
      resumed: boolean;
      slots: readonly PlannedSlot[];
      estimateUSD: number | null;
    }
  | ({ type: "queue.changed" } & WorkQueueState)
  | { type: "engines.changed"; engines: EngineCounts[] }
  | { type: "candidate.started"; slot: SlotKey; evalRunId: string }
  | { type: "candidate.finished"; slot: SlotKey; evalRun: EvalRun; outcome: EvalRunOutcome }
  | { type: "check.finished"; slot: SlotKey; evalRunId: string; check: EarlyCheck }
  | { type: "notice"; message: string }
  | ({ type: "provider.backoff" } & ProviderBackoff)
  | { type: "judge.started"; slot: SlotKey; judgeRunId: string }
  | { type: "judge.finished"; slot: SlotKey; judgeRun: JudgeRun }
  | { type: "run.finished"; runId: string; directory: string; summary: RunSummary };

/**
 * A change of one provider's share of the candidate lanes (docs/guide/running.md#provider-back-off): lowered on a 429
 * or 503, held while OpenCode waits to retry, resumed once it has, raised again by answers, recovered at full share.
 */
export interface ProviderBackoff {
  /** The model ref's provider part (`anthropic`, `local`, `control`). */
  provider: string;
  /**
   * lowered: a 429/503 halved the share, and new candidates of the provider wait for OpenCode's retry; held: the
   * same wait, the share unchanged (candidates started under a higher one were still running); resumed: every
   * pushed-back request was sent again, new candidates may start; raised: answers since raised the share by one;
   * recovered: raised back to the run's concurrency.
   */
  change: "lowered" | "held" | "resumed" | "raised" | "recovered";
  /** How many of the provider's candidates may run at once now. */
  limit: number;
  /** The run's concurrency: the provider's full share. */
  max: number;
  /** lowered, held: what the provider answered (429-like or 503-like); null otherwise. */
  reason: "rate_limited" | "unavailable" | null;
  /** lowered, held: the provider's message (or the HTTP status text); null otherwise. */
  message: string | null;
  /**
   * resumed: how long new candidates of the provider waited, until OpenCode sent the pushed-back requests again (it
   * waits the answer's `retry-after` when it has one, else 2 s doubling); null otherwise.
   */
  retryAfterMs: number | null;
}

export interface RunSummary {
  runId: string;
  directory: string;
  models: ModelResult[];
  /** Paired comparisons of the first real model with each other one (points, with a 95% CI), current variants only. */
  comparisons: PairedComparison[];
  /**
   * Each variant against current for the same model over the same evals (b − a = variant − current): the paired
   * difference with its 95% CI, per eval and per criterion.
   */
  variantComparisons: { model: string; variant: string; comparison: ModelPairComparison }[];
  /** Decided over real models only: controls calibrate judges and never enter the verdict. */
  verdict: Verdict;
  /** Each slot's candidate fingerprint and active judge fingerprint (baselines keep them). */
  fingerprints: SlotFingerprint[];
  /** Every slot in scope has an active judgment. */
  complete: boolean;
  /** Slots in scope still needing work, with why (failed, held back by --offline/--max-cost, unjudged). */
  open: {
    slot: SlotKey;
    action: PlannedSlot["action"];
    reason: string;
    /** The slot's recorded eval run, the id `openeval retry` / `rejudge` take; null when it never ran. */
    evalRunId: string | null;
  }[];
  /** What the numbers alone do not tell: runs that compacted many times, models whose cost is unknown (no pricing). */
  warnings: string[];
  /** Set when the verdict's settings (gates, selection, thresholds) are not today's benchmark.ts: says which it used. */
  settingsNote: string | null;
  /** Slots outside the --only-* scope (not part of this summary). */
  outOfScope: number;
  /** Eval id → the criteria it is scored by (declared, or returned by its judge.ts), in order. */
  criteria: Record<string, string[]>;
  /** Per criterion category (OpenEval 0.5), each model's score over that category's criteria; empty without categories. */
  categories: CategoryScore[];
  /**
   * Files of the benchmark folder, the harness or the run's frozen inputs that changed while candidates ran
   *: grading used the frozen inputs regardless, but the run says who changed what and when.
   */
  inputChanges: InputChangeRecord[];
  /** Records that fail their integrity check: reported, and judge runs among them not scored. */
  integrity: IntegrityProblem[];
  /**
   * What the integrity check found in the active judgments' recordings (controls' too, never in the verdict), each
   * finding with the severity the verdict gives it; only slots with findings. Absent in summaries made before it.
   */
  integrityFindings?: SlotIntegrityFindings[];
  /**
   * Krippendorff's α of each criterion a panel (or repeated gradings) judged, and whether it is unreliable. Absent in
   * summaries recorded before judge agreement.
   */
  agreement?: CriterionAgreement[];
  /**
   * People's reviews of criteria (`openeval review`), history included: the latest of an eval run's criterion decides
   * its score in place of the judge's. Absent in summaries made before reviews.
   */
  reviews?: ReviewStanding[];
  /**
   * benchmark.ts `invariants`, each with what its recorded evaluation found (never run again to say so); [] when none
   * is declared. Absent in summaries recorded before invariants.
   */
  invariants?: InvariantReport[];
  /** A pool's engines, with the eval runs each ran and how many of them it cut short; empty with one engine (absent in summaries recorded before pools). */
  engines?: { name: string; evalRuns: number; interrupted: number }[];
  /**
   * Adaptive repetitions: the round reached against `max`, each comparison's decision, and the slots (and spend) a
   * decision spared; null without them (absent in summaries recorded before them).
   */
  adaptive?: AdaptiveProgress | null;
}

export interface ModelResult extends ModelSummary {
  /** A scripted control model, shown and labelled as such. */
  control: boolean;
  /** A real model with eval runs on this machine as the current user (`--isolation process`): labelled everywhere. */
  unsandboxed: boolean;
  /** Slots whose candidate or judgment failed: unresolved until `openeval retry` / `rejudge`. */
  failed: number;
  interval: ScoreInterval;
  passK: PassK | null;
  costTime: CostAndTime & { model: string; variant?: string };
}

export type RunnerListener = (event: RunnerEvent) => void;

/** One slot's integrity findings, as the summary, JSON, JUnit, Markdown and the viewer report them. */
export interface SlotIntegrityFindings {
  slot: SlotKey;
  control: boolean;
  evalRunId: string;
  judgeRunId: string;
  findings: (IntegrityFinding & { severity: IntegritySeverity })[];
}
