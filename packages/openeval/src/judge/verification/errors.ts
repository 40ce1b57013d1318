// Verification errors: a stable code and a message that says what to do (fix the request; the engine and image
// errors are the container engine's own). A command that fails or times out inside the container is a result, never one of these.
import type { SandboxErrorCode } from "../../sandbox/index.ts";
import { OpenEvalError } from "../../util/errors.ts";

export type VerificationErrorCode =
  | "OE_VENDOR_PACKAGE_FAILED"
  | "OE_INVALID_REQUEST"
  | "OE_ARTIFACT_NOT_FOUND"
  | "OE_ARTIFACT_CORRUPT"
  // The sandbox's code, for a sandbox failure a verification passes on.
  | Extract<SandboxErrorCode, "OE_ENGINE_FAILED">;

export class VerificationError extends OpenEvalError {
  constructor(
    readonly code: VerificationErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
