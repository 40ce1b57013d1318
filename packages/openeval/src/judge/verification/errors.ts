// Verification errors: a stable code and a message that says what to do (fix the request; the engine and image
// errors are the container engine's own). A command that fails or times out inside the container is a result, never one of these.
import { OpenEvalError } from "../../util/errors.ts";

export type VerificationErrorCode =
  | "VENDOR_PACKAGE_FAILED"
  | "INVALID_REQUEST"
  | "ARTIFACT_NOT_FOUND"
  | "ARTIFACT_CORRUPT"
  | "ENGINE_FAILED";

export class VerificationError extends OpenEvalError {
  constructor(readonly code: VerificationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
