// Scorer errors: a stable code and a message that says what to fix (the reference file, the options). A judge.ts
// that lets one escape fails its judge run with that message: a judging error, never a candidate's 0.
export type ScorerErrorCode = "OE_REFERENCE_UNREADABLE" | "OE_REFERENCE_WITHOUT_DIFF" | "OE_REFERENCE_MALFORMED" | "OE_INVALID_OPTIONS";

export class ScorerError extends Error {
  constructor(readonly code: ScorerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScorerError";
  }
}
