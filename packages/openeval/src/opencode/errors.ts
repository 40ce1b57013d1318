// Errors of driving OpenCode that a user can act on: a stable code, a message that says what to do, the cause kept.
import { OpenEvalError } from "../util/errors.ts";

export type OpenCodeErrorCode =
  | "OPENCODE_LIVE_DATABASE_MISSING"
  | "OPENCODE_LIVE_DATABASE_BUSY"
  | "OPENCODE_EXPORT_FAILED"
  | "OPENCODE_INVALID_MODEL";

export class OpenCodeError extends OpenEvalError {
  override readonly name = "OpenCodeError";
  constructor(
    readonly code: OpenCodeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
