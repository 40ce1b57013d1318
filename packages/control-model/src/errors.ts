// Errors a user can act on when a control file cannot be used: a stable code, the file path, the cause kept.

export type ControlFileErrorCode = "OE_CONTROL_FILE_INVALID" | "OE_CONTROL_FILE_UNREADABLE";

/** Thrown by `loadControlFile`; `message` names the file and what to fix. */
export class ControlFileError extends Error {
  override readonly name = "ControlFileError";
  readonly code: ControlFileErrorCode;
  readonly path: string;

  constructor(code: ControlFileErrorCode, path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.path = path;
  }
}
