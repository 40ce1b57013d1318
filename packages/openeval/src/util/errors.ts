// The one base of the errors a user can act on: each carries a stable code and the exit code the CLI ends with, so
// the CLI formats them all in one place (cli/errors.ts) and no command re-wraps another stage's error by hand.
// Internal errors (a judge's bad output, a malformed literal) stay plain Errors: they never reach the user as such.
import { EXIT_CODES, type ExitCode } from "./exit-codes.ts";

export abstract class OpenEvalError extends Error {
  abstract readonly code: string;
  /** Exit code 2 when the input or configuration must change (nothing ran), unless a class says otherwise. */
  readonly exitCode: ExitCode = EXIT_CODES.invalidInput;
}

/**
 * One situation a user can act on: its code, and its message written once from the data a throw site has. A family's
 * errors.ts keeps them in one table, so a situation thrown from two places reads the same in both.
 * @example
 * const SITUATIONS = { missing: { code: "OE_X_MISSING", message: ({ path }: { path: string }) => `No ${path}; create it` } };
 */
export interface Situation {
  code: `OE_${string}`;
  message: (data: never) => string;
}

/** What a throw site passes for a situation: its data (nothing when the message takes none), then the error options. */
export type SituationArgs<S extends Situation> = S["message"] extends () => string
  ? [data?: undefined, options?: ErrorOptions]
  : [data: Parameters<S["message"]>[0], options?: ErrorOptions];

/**
 * The base of a family whose errors are situations of one table: the code and message come from the table. A
 * family's class only binds its table, so its throw sites pass a situation and typed data:
 * @example
 * export class EvidenceError<S extends EvidenceSituation = EvidenceSituation> extends SituationError<typeof SITUATIONS, S> {
 *   constructor(situation: S, ...[data, options]: SituationArgs<(typeof SITUATIONS)[S]>) { super(SITUATIONS, situation, data, options); }
 * }
 */
export abstract class SituationError<T extends Record<string, Situation>, S extends keyof T> extends OpenEvalError {
  readonly code: T[keyof T]["code"];
  constructor(
    situations: T,
    readonly situation: S,
    data: unknown,
    options?: ErrorOptions,
  ) {
    super(situations[situation]!.message(data as never), options);
    this.code = situations[situation]!.code;
  }
}
