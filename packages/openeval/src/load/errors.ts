// Load-stage errors: every problem names the file and says what to fix; loading collects them all.
export interface LoadProblem {
  /** The file or folder at fault, relative to the benchmark directory. */
  file: string;
  message: string;
}

export class BenchmarkInvalidError extends Error {
  readonly code = "BENCHMARK_INVALID";
  constructor(readonly problems: LoadProblem[]) {
    super(
      `The benchmark has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
        problems.map((problem) => `  ${problem.file}: ${problem.message}`).join("\n"),
    );
  }
}

/** A problem found while loading one piece; collected, then thrown together as BenchmarkInvalidError. */
export class LoadProblemError extends Error {
  constructor(readonly file: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
