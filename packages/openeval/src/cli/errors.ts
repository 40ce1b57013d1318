// The one place CLI errors are formatted: known errors briefly with their exit code, unknown ones with a stack.
import { BenchmarkInvalidError } from "../load/index.ts";
import { EvidenceError } from "../recording/index.ts";

/** SPEC §10 exit codes. */
export const EXIT = { pass: 0, verdictFail: 1, invalidInput: 2, incomplete: 3 } as const;

export class UsageError extends Error {
  readonly code = "USAGE";
}

export function formatCliError(error: unknown): { message: string; exitCode: number } {
  if (error instanceof BenchmarkInvalidError || error instanceof UsageError) {
    return { message: `error: ${error.message}`, exitCode: EXIT.invalidInput };
  }
  if (error instanceof EvidenceError) return { message: `error: ${error.message}`, exitCode: EXIT.invalidInput };
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { message: `Unexpected error (please report it):\n${stack}`, exitCode: EXIT.incomplete };
}
