// Sandbox errors: a stable code and a message that says what to do. A command that fails or times out inside a
// sandbox is an outcome, never one of these; these mean the sandbox itself could not be had.
import { OpenEvalError } from "../util/errors.ts";

export type SandboxErrorCode = "OE_UNKNOWN_ENGINE" | "OE_ENGINE_FAILED" | "OE_ARCHIVE_UNSAFE_PATH";

export class SandboxError extends OpenEvalError {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How to get a container engine, for every message that needs one. */
export const ENGINE_REMEDY =
  "Start Docker or Podman there, or point DOCKER_HOST at one; on a Debian machine without one, " +
  "`sudo bash .ci/setup-container-engine.sh` installs and starts Docker";
