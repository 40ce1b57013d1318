// Errors a user can act on when a control file cannot be used: a stable code, the file path, the cause kept. Each
// situation's message is written once here, from the reason the loader found.

const SITUATIONS = {
  unreadable: {
    code: "OE_CONTROL_FILE_UNREADABLE",
    message: (path: string, reason: string) => `Cannot read control file ${path}: ${reason}`,
  },
  notJson: {
    code: "OE_CONTROL_FILE_INVALID",
    message: (path: string, reason: string) => `Control file ${path} is not valid JSON: ${reason}`,
  },
  fieldsInvalid: {
    code: "OE_CONTROL_FILE_INVALID",
    message: (path: string, problems: string) =>
      `Control file ${path} is invalid. Fix these fields (format: docs/control-files.md):\n${problems}`,
  },
} as const;

export type ControlFileErrorCode = (typeof SITUATIONS)[keyof typeof SITUATIONS]["code"];

/** Thrown by `loadControlFile`; `message` names the file and what to fix. */
export class ControlFileError extends Error {
  override readonly name = "ControlFileError";
  readonly code: ControlFileErrorCode;

  /** `reason`: what the loader found (the read error, the JSON error, or the invalid fields). */
  constructor(
    readonly situation: keyof typeof SITUATIONS,
    readonly path: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(SITUATIONS[situation].message(path, reason), options);
    this.code = SITUATIONS[situation].code;
  }
}
