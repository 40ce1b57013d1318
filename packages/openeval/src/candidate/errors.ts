// Candidate errors that stop a run before any model call: no engine for container isolation, no candidate image.
// Each says what to do. A candidate that fails while running is a recorded EvalRun, never one of these.
import { OpenEvalError } from "../util/errors.ts";

export type CandidateErrorCode = "ENGINE_UNREACHABLE" | "IMAGE_MISSING" | "IMAGE_STALE" | "IMAGE_BUILD_FAILED";

export class CandidateError extends OpenEvalError {
  constructor(readonly code: CandidateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The one command that builds (or rebuilds) the candidate image; every image error names it. */
export const BUILD_CANDIDATE_IMAGE_COMMAND = "npx openeval image --candidate";
