// The evidence format's name and version, apart from its zod schema (schema.ts): a reader of sealed evidence (a
// code-judge worker, which pays for every module it loads at each grading) checks them without building a schema.
export const EVIDENCE_FORMAT = "openeval.evidence";
export const EVIDENCE_VERSION = 1;

/** Where a recording keeps OpenCode's native files, relative to its evidence folder: one spelling for every writer. */
export const NATIVE_LAYOUT = { database: "native/opencode.db", sessions: "native/sessions" } as const;
