// Recording-stage errors: a stable code and a message that says what is wrong and what to do.
import { OpenEvalError } from "../util/errors.ts";

export type EvidenceErrorCode = "EVIDENCE_NOT_FOUND" | "EVIDENCE_CORRUPT" | "EVIDENCE_UNSUPPORTED" | "FILE_NOT_FOUND" | "FILE_OMITTED" | "NOT_AVAILABLE";

export class EvidenceError extends OpenEvalError {
  constructor(readonly code: EvidenceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
