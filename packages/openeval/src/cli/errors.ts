// The one place CLI errors are formatted: an OpenEvalError (any stage's error a user can act on) briefly, with the
// exit code it carries; anything else with a stack, as a bug to report.
import { EXIT_CODES } from "../util/exit-codes.ts";
import { OpenEvalError } from "../util/errors.ts";

/** SPEC §10 exit codes (one table, shared with the verdict). */
export const EXIT = EXIT_CODES;

export class UsageError extends OpenEvalError {
  readonly code = "OE_USAGE";
}

export function formatCliError(error: unknown): { message: string; exitCode: number } {
  if (error instanceof OpenEvalError) return { message: `error: ${error.message}`, exitCode: error.exitCode };
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { message: `Unexpected error (please report it):\n${stack}`, exitCode: EXIT.incomplete };
}
