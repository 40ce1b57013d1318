// The one place CLI errors are formatted: known errors briefly with their exit code, unknown ones with a stack.
import { BenchmarkInvalidError } from "../load/index.ts";
import { EvidenceError } from "../recording/index.ts";
import { BaselineInvalidError, BaselineRefusedError, EXIT_CODES, GateSelectionError, RunMaintenanceError, StoreError } from "../results/index.ts";
import { RunInProgressError } from "../run/index.ts";
import { VerificationError } from "../judge/index.ts";
import { ScopeInvalidError } from "../plan/index.ts";
import { CandidateError } from "../candidate/index.ts";

/** SPEC §10 exit codes (one table, shared with the verdict). */
export const EXIT = EXIT_CODES;

export class UsageError extends Error {
  readonly code = "USAGE";
}

const KNOWN = [BenchmarkInvalidError, UsageError, EvidenceError, GateSelectionError, BaselineRefusedError, BaselineInvalidError, StoreError, RunInProgressError, VerificationError, ScopeInvalidError, CandidateError, RunMaintenanceError];

export function formatCliError(error: unknown): { message: string; exitCode: number } {
  if (KNOWN.some((known) => error instanceof known)) return { message: `error: ${(error as Error).message}`, exitCode: EXIT.invalidInput };
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { message: `Unexpected error (please report it):\n${stack}`, exitCode: EXIT.incomplete };
}
