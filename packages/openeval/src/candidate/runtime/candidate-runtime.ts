// Where a candidate runs, as one interface every isolation backend implements: each pins what a run's candidates run
// with, reaps what dead runners left, and opens one eval run's runtime. The backends are chosen by name in
// runtimes.ts; each passes the shared contract suite (runtime-contract.case.ts).
import type { BenchmarkSettings, EnvironmentLimits } from "../../load/index.ts";
import type { Launcher } from "../../opencode/index.ts";
import type { EngineOptions } from "../../sandbox/index.ts";
import type { NotCopiedFile } from "../../recording/index.ts";
import type { LiveCandidate, TakeCheckpoint } from "../checkpoint.ts";
import type { PreparationFailure, StepRunner } from "../prepare-workspace.ts";

/**
 * What an eval run executes with, fixed before any candidate starts: the candidate image's id, or for an eval with
 * its own environment, that environment's image.
 */
export interface PinnedRuntime {
  image: string | null;
  /** The engine it runs on, when the backend runs on one: the pool's engine this eval run was placed on. */
  engine?: EngineOptions;
  /** Set when `image` is the eval's environment image. */
  environment?: RuntimeEnvironment;
}

export interface RuntimeEnvironment {
  /** The workspace: the environment's working directory. */
  workdir: string;
  /** The agent's commands run as root on a writable root (the environment names no USER). */
  asRoot: boolean;
  /** The eval's own limits, over benchmark.ts's `candidate.container`. */
  limits: EnvironmentLimits;
}

export interface OpenRuntimeOptions {
  runId: string;
  evalRunId: string;
  /** The eval run's scratch folder on this machine (HOME, config, live database, workspace). */
  scratch: string;
  /** The workspace inside `scratch`. */
  workspace: string;
  /** The eval run's logs folder (absolute). */
  logs: string;
  /** The candidate's time limit, and the longest its eval.ts prepare steps may take before it. */
  timeoutMs: number;
  preparationMs: number;
  candidate: BenchmarkSettings["candidate"];
  /** The model's provider endpoint, the one address the candidate may reach (null when it has none). */
  endpoint: string | null;
  secrets: string[];
  pinned: PinnedRuntime;
  /** The eval's solution/ folder on this machine, laid at /solution for the oracle control to run (else null). */
  solution: string | null;
}

/** One eval run's runtime: the steps of a candidate's life, wherever it runs. */
export interface CandidateRuntime {
  /**
   * Lays the starting workspace on this machine: `lay` makes it from the eval's files, unless the runtime's
   * environment brings its own (then its working directory's files are copied here).
   */
  layWorkspace(lay: () => Promise<void>): Promise<void>;
  /** Runs eval.ts prepare (`body`'s steps) where the agent will run; the prepared workspace is then on this machine. */
  prepare(
    workspace: string,
    body: (runStep: StepRunner) => Promise<PreparationFailure | null>,
  ): Promise<PreparationFailure | null>;
  /** How runOpenCode starts the agent (and stops it, and copies its files back): nothing here means this machine. */
  readonly agent: {
    launch?: Launcher;
    sharedFolders?: string[];
    /** Where the agent sees a folder of this machine's scratch (its workspace, its HOME); unchanged when absent. */
    seenAs?: (path: string) => string;
  };
  /** A checkpoint of the running agent's workspace and database, recorded on this machine. */
  checkpoint(live: LiveCandidate): TakeCheckpoint;
  /** Files under a folder (the workspace) that the copy-out left where the agent ran, past its limit. */
  notCopied(folder: string): NotCopiedFile[];
  /** Removes everything the runtime made. Idempotent; also after a failure. */
  close(): Promise<void>;
  /**
   * After close: the connections its egress proxy refused, in order (`host:port`, null for a request that was not a
   * CONNECT); null when the runtime has no proxy to refuse anything.
   */
  refusedConnections(): Promise<(string | null)[] | null>;
}

export interface CandidateRuntimeBackend {
  /**
   * Before any candidate of a run starts: what they run with, found on `engine` (the pool's home engine); throws
   * what stops the run (no engine, no image).
   */
  pin(engine: EngineOptions): Promise<PinnedRuntime>;
  /** Before new work: removes what runners that died left behind on that engine. Never fatal. */
  reapOrphans(engine: EngineOptions): Promise<void>;
  open(options: OpenRuntimeOptions): Promise<CandidateRuntime>;
}
