// Viewer-stage errors a user can act on, each with a stable code. The CLI maps them to exit code 2.
export type ViewErrorCode = "EXPORT_TARGET_NOT_EMPTY";

export class ExportError extends Error {
  constructor(readonly code: ViewErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
