// Load-stage errors: every problem names the file and says what to fix; loading collects them all.
import { OpenEvalError } from "../util/errors.ts";

export interface LoadProblem {
  /** The file or folder at fault, relative to the benchmark directory. */
  file: string;
  message: string;
}

export class BenchmarkInvalidError extends OpenEvalError {
  readonly code = "BENCHMARK_INVALID";
  constructor(readonly problems: LoadProblem[]) {
    super(
      `The benchmark has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
        problems.map((problem) => `  ${problem.file}: ${problem.message}`).join("\n"),
    );
  }
}
