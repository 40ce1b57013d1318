// Viewer-stage errors a user can act on, each with a stable code. The CLI maps them to exit code 2.
import { OpenEvalError } from "../util/errors.ts";

export type ViewErrorCode = "OE_EXPORT_TARGET_NOT_EMPTY" | "OE_EXPORT_BAD_ARTIFACT" | "OE_RECORDING_UNREADABLE" | "OE_COMPARE_INVALID";

export class ExportError extends OpenEvalError {
  constructor(readonly code: ViewErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** A recording or judge-run file that exists but fails its hash check: the API answers it, never an empty list. */
export class UnreadableEvidenceError extends OpenEvalError {
  readonly code: ViewErrorCode = "OE_RECORDING_UNREADABLE";
}

/** A comparison that names no run, baseline or model it can compare (the message lists what exists). */
export class CompareError extends OpenEvalError {
  readonly code: ViewErrorCode = "OE_COMPARE_INVALID";
}
