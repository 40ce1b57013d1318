// The exit codes, the one table (docs/guide/ci.md): the verdict maps to them, and so does every error a user can act on.
export const EXIT_CODES = { pass: 0, verdictFail: 1, invalidInput: 2, incomplete: 3 } as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
