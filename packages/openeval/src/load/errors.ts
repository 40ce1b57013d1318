// Load-stage errors: every problem names the file and says what to fix; loading collects them all.
import { OpenEvalError } from "../util/errors.ts";

/** Problems a script may want to tell apart; most problems carry none (their file and message say it all). */
export type LoadProblemCode =
  /** An eval-folder entry (or the eval folder) resolves outside the benchmark folder, through a symlink. */
  | "OE_LINK_OUTSIDE_BENCHMARK"
  /** A file benchmark.ts names (a variant's `{ file }`) resolves outside the benchmark folder. */
  | "OE_FILE_OUTSIDE_BENCHMARK"
  /** judge.ts (or a file it imports) imports a local file outside the benchmark folder. */
  | "OE_JUDGE_IMPORT_OUTSIDE_BENCHMARK";

export interface LoadProblem {
  /** The file or folder at fault, relative to the benchmark directory. */
  file: string;
  message: string;
  code?: LoadProblemCode;
}

/** A problem found inside a loading step (bundling judge.ts), thrown with its code for the eval's loader to collect. */
export class CodedLoadError extends Error {
  constructor(
    readonly code: LoadProblemCode,
    message: string,
  ) {
    super(message);
  }
}

export class BenchmarkInvalidError extends OpenEvalError {
  readonly code = "OE_BENCHMARK_INVALID";
  constructor(readonly problems: LoadProblem[]) {
    super(
      `The benchmark has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
        problems
          .map((problem) => `  ${problem.file}: ${problem.code ? `[${problem.code}] ` : ""}${problem.message}`)
          .join("\n"),
    );
  }
}

/** OPENEVAL_ENGINES is not a valid engine list, or names engines that benchmark.ts names too. */
export class EnginesSettingError extends OpenEvalError {
  readonly code = "OE_ENGINES_INVALID";
}
