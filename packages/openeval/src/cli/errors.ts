// The one place CLI errors are formatted: an OpenEvalError (any stage's error a user can act on) briefly, with its
// code and the exit code it carries; anything else with a stack, as a bug to report. With `--json` the same error is
// also one JSON object on stdout, so a script reads the code without parsing the message.
import { EXIT_CODES } from "../util/exit-codes.ts";
import { OpenEvalError } from "../util/errors.ts";

/** SPEC §10 exit codes (one table, shared with the verdict). */
export const EXIT = EXIT_CODES;

export class UsageError extends OpenEvalError {
  readonly code = "OE_USAGE";
}

export interface CliError {
  /** What stderr shows: `error OE_…: message`, or an unexpected error with its stack. */
  message: string;
  exitCode: number;
  /** What `--json` prints on stdout; `code` is null for an unexpected error (a bug, not a situation a script handles). */
  json: { error: { code: string | null; message: string } };
}

export function formatCliError(error: unknown): CliError {
  if (error instanceof OpenEvalError) {
    return { message: `error ${error.code}: ${error.message}`, exitCode: error.exitCode, json: { error: { code: error.code, message: error.message } } };
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const message = error instanceof Error ? error.message : String(error);
  return { message: `Unexpected error (please report it):\n${stack}`, exitCode: EXIT.incomplete, json: { error: { code: null, message } } };
}
