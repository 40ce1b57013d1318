// Recording-stage errors: a stable code and a message that says what is wrong and what to do.
import { OpenEvalError } from "../util/errors.ts";

export type EvidenceErrorCode = "OE_EVIDENCE_NOT_FOUND" | "OE_EVIDENCE_CORRUPT" | "OE_EVIDENCE_UNSUPPORTED" | "OE_FILE_NOT_FOUND" | "OE_FILE_OMITTED" | "OE_NOT_AVAILABLE";

export class EvidenceError extends OpenEvalError {
  constructor(readonly code: EvidenceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
