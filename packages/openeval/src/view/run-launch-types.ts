// Starting and stopping runs from the viewer's page: what the page sends and is answered. Pure types (no Node
// modules): the front end imports them too. The work itself is `openeval run`'s, through a RunLauncher the CLI gives
// `openeval view` (cli/view-launcher.ts).
import type { SlotAction } from "../plan/index.ts";

/** What to run, as the page chooses it: each list scopes the run as the CLI's --only-* flags do (absent: all). */
export interface RunSelection {
  /** "new" starts a new run; otherwise the id of a run of this benchmark to resume. */
  run: string;
  evals?: string[];
  cases?: string[];
  models?: string[];
  variants?: string[];
  repetitions?: number[];
  /** `--max-cost`: work whose maximum is unknown or over what is left of it waits. */
  maxCostUSD?: number;
}

/** What the person confirmed: the plan's maximum cost as shown (null: they accepted that it is unknown). */
export interface RunConfirmation {
  maximumUSD: number | null;
}

export interface RunStartRequest extends RunSelection {
  confirm: RunConfirmation;
}

/** What a selection can be made of: every slot of the benchmark (and of the run, when resuming one). */
export interface RunChoices {
  /** Runs of this benchmark that can be resumed, newest first. */
  runs: string[];
  evals: { id: string; cases: string[] }[];
  models: string[];
  variants: string[];
  repetitions: number[];
}

export interface PlannedWork {
  /** `eval (case c) × candidate #n`, as `openeval plan` words a slot. */
  slot: string;
  action: SlotAction;
  reason: string;
}

export interface RunPlanAnswer {
  choices: RunChoices;
  /** The run resumed; null for a new run. */
  runId: string | null;
  /** The pid of a live `openeval run` holding that run: it cannot start here until that one ends. */
  heldBy: number | null;
  work: PlannedWork[];
  counts: Partial<Record<SlotAction, number>>;
  /** Expected spend; null when some work has no cost history. */
  estimateUSD: number | null;
  /** The most the work can spend; null when some of it is unbounded. */
  maximumUSD: number | null;
  /** The work nothing bounds, and what would. */
  unbounded: { slot: string; action: "candidate" | "judge"; why: string }[];
  /** The sentence the person confirms before starting: the maximum, or that it is unknown and why. */
  confirmation: string;
}

export interface StartedRun {
  runId: string;
  pid: number;
}

export interface StoppedRun {
  runId: string;
  /** The runner's exit code (130/143 after a stop: interrupted work is recorded as such). */
  exitCode: number | null;
}

/** What `openeval view` can do with runs besides reading them: plan, start and stop `openeval run`. */
export interface RunLauncher {
  plan(selection: RunSelection): Promise<RunPlanAnswer>;
  start(request: RunStartRequest): Promise<StartedRun>;
  stop(runId: string): Promise<StoppedRun>;
  /** Stops every run this viewer started, each as a clean SIGTERM, and waits for them. */
  close(): Promise<void>;
}
