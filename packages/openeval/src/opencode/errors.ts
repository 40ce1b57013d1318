// Errors of driving OpenCode that a user can act on: a stable code, a message that says what to do, the cause kept.
import { OpenEvalError } from "../util/errors.ts";

export type OpenCodeErrorCode =
  | "OE_OPENCODE_LIVE_DATABASE_MISSING"
  | "OE_OPENCODE_LIVE_DATABASE_BUSY"
  | "OE_OPENCODE_EXPORT_FAILED"
  | "OE_OPENCODE_INVALID_MODEL";

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
