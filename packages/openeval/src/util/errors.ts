// The one base of the errors a user can act on: each carries a stable code and the exit code the CLI ends with, so
// the CLI formats them all in one place (cli/errors.ts) and no command re-wraps another stage's error by hand.
// Internal errors (a judge's bad output, a malformed literal) stay plain Errors: they never reach the user as such.
import { EXIT_CODES, type ExitCode } from "./exit-codes.ts";

export abstract class OpenEvalError extends Error {
  abstract readonly code: string;
  /** Exit code 2 when the input or configuration must change (nothing ran), unless a class says otherwise. */
  readonly exitCode: ExitCode = EXIT_CODES.invalidInput;
}
