// Errors of the candidate stage that a user can act on: a stable code, a message that says what to do, the cause kept.

export type CandidateErrorCode =
  | "CANDIDATE_LIVE_DATABASE_MISSING"
  | "CANDIDATE_LIVE_DATABASE_BUSY"
  | "CANDIDATE_EXPORT_FAILED"
  | "CANDIDATE_INVALID_MODEL";

export class CandidateError extends Error {
  override readonly name = "CandidateError";
  constructor(
    readonly code: CandidateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
