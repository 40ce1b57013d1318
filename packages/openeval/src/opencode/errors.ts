// Errors of driving OpenCode that a user can act on: a stable code, a message that says what to do, the cause kept.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  liveDatabaseMissing: {
    code: "OE_OPENCODE_LIVE_DATABASE_MISSING",
    message: ({ path }: { path: string }) =>
      `No native OpenCode database at ${path}: OpenCode never started or wrote elsewhere (check OPENCODE_DB and the run's stderr log).`,
  },
  liveDatabaseBusy: {
    code: "OE_OPENCODE_LIVE_DATABASE_BUSY",
    message: ({ path }: { path: string }) =>
      `The native database ${path} is still in use; archive it only after the OpenCode process has exited.`,
  },
  exportRowUnreadable: {
    code: "OE_OPENCODE_EXPORT_FAILED",
    message: ({ table, problem }: { table: string; problem: string }) =>
      `OpenCode's ${table} table has a row this openeval cannot export (${problem}); the archived database still holds the session. Is the OpenCode binary the pinned one (openeval --version)?`,
  },
  modelInvalid: {
    code: "OE_OPENCODE_INVALID_MODEL",
    message: ({ model }: { model: string }) =>
      `Model "${model}" is not of the form provider/model[#variant]; write it as OpenCode names it, e.g. anthropic/claude-sonnet-4-5.`,
  },
} as const satisfies Record<string, Situation>;

export type OpenCodeSituation = keyof typeof SITUATIONS;
export type OpenCodeErrorCode = (typeof SITUATIONS)[OpenCodeSituation]["code"];

export class OpenCodeError<S extends OpenCodeSituation = OpenCodeSituation> extends SituationError<
  typeof SITUATIONS,
  S
> {
  override readonly name = "OpenCodeError";
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof SITUATIONS)[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
