// How big each measurement runs. `full` is sized to finish in about 10 minutes on an idle 2-core machine, except
// the viewer and runner-memory sections, which run at large-run sizes and take far longer; `quick` is a smoke test
// of the script itself, not a measurement to compare.
export interface BenchSizes {
  /** Pairs (bare, harness) of section 1: even at low load a pair's difference moves by a few tenths of a second, so 9, not 5. */
  overheadRepetitions: number;
  throughputEvals: number;
  throughputConcurrency: number[];
  /** Interleaved rounds (harness, bare) of section 2 at each concurrency. */
  throughputRounds: number;
  rejudgeRecordings: number;
  rejudgePools: number[];
  plan: { evals: number; models: number; repetitions: number };
  planRepetitions: number;
  planLoads: number;
  sandboxRepetitions: number;
  isolationEvals: number;
  /** Section 10: evals with an environment (built cold, then warm), and their eval runs. */
  environmentEvals: number;
  /** Section 11: eval runs on each pool size (1, 2, 3 engines). */
  enginePoolEvalRuns: number;
  /** Judged eval runs in the run `openeval view` serves (section 5). */
  viewerEvalRuns: number;
  /** Recorded slots the runner code-judges (section 9). */
  runnerMemorySlots: number;
  /** Simulated comparisons of section 12, per case. */
  adaptiveComparisons: number;
}

export const FULL: BenchSizes = {
  overheadRepetitions: 9,
  throughputEvals: 6,
  throughputConcurrency: [1, 2, 4],
  throughputRounds: 2,
  rejudgeRecordings: 200,
  rejudgePools: [1, 2],
  plan: { evals: 1000, models: 10, repetitions: 5 },
  planRepetitions: 5,
  planLoads: 3,
  sandboxRepetitions: 10,
  isolationEvals: 8,
  environmentEvals: 3,
  enginePoolEvalRuns: 6,
  viewerEvalRuns: 100_000,
  runnerMemorySlots: 10_000,
  adaptiveComparisons: 10_000,
};

export const QUICK: BenchSizes = {
  overheadRepetitions: 1,
  throughputEvals: 1,
  throughputConcurrency: [1, 2],
  throughputRounds: 1,
  rejudgeRecordings: 10,
  rejudgePools: [1, 2],
  plan: { evals: 20, models: 5, repetitions: 5 },
  planRepetitions: 2,
  planLoads: 1,
  sandboxRepetitions: 2,
  isolationEvals: 2,
  environmentEvals: 3,
  enginePoolEvalRuns: 2,
  viewerEvalRuns: 2_000,
  runnerMemorySlots: 100,
  adaptiveComparisons: 500,
};
