// Results-store errors: each situation's code and message, written once here. They stop a command before it
// records anything; a store that is only behind (an older schema) is read, never rewritten.
import { OpenEvalError, SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  schemaUnsupported: {
    code: "OE_STORE_INVALID",
    message: ({ file, version, newest }: { file: string; version: number; newest: number }) =>
      `Results store ${file} has schema ${version}; this openeval reads schemas 1 to ${newest}. Start a new run with --new`,
  },
  noRunRecord: {
    code: "OE_STORE_INVALID",
    message: ({ directory }: { directory: string }) => `The results store in ${directory} has no run record`,
  },
  /** `what` names the record: a results store row, an invocation record, a runtime identity. */
  recordInvalid: {
    code: "OE_STORE_INVALID",
    message: ({ what, problem }: { what: string; problem: string }) =>
      `${what} in the results store does not match this openeval's format: ${problem}`,
  },
  ownRecordInvalid: {
    code: "OE_STORE_INVALID",
    message: ({ problem }: { problem: string }) =>
      `openeval tried to record a row that does not match its own format (a bug; report it): ${problem}`,
  },
  copyNotFinalized: {
    code: "OE_STORE_INVALID",
    message: () => "Only finalized eval and judge runs can be copied into a run",
  },
  cannotLock: {
    code: "OE_STORE_INVALID",
    message: ({ root }: { root: string }) =>
      `could not lock ${root} to create a run in it; check that it is a folder you can read`,
  },
  runAndNew: {
    code: "OE_RUN_CHOICE_INVALID",
    message: () => "--run and --new contradict each other; pass one of them",
  },
} as const satisfies Record<string, Situation>;

type Situations = typeof SITUATIONS;
type StoreSituation = keyof Situations;

export class StoreError<S extends StoreSituation = StoreSituation> extends SituationError<Situations, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}

/**
 * No run where one was asked for: a folder or id named as a run that is not one (`runsUnder`: the results folder whose
 * run ids are accepted too), or none named and none recorded yet. One wording wherever a run is named.
 */
export class RunNotFoundError extends OpenEvalError {
  readonly code = "OE_RUN_NOT_FOUND";

  constructor(readonly missing: { named: string; runsUnder?: string } | { noneUnder: string }) {
    super(
      "named" in missing
        ? `${missing.named} is not a run: pass a results/<run-id> folder ${missing.runsUnder === undefined ? "that openeval run wrote" : `or a run id under ${missing.runsUnder}`}`
        : `No runs under ${missing.noneUnder}; run one with \`npx openeval run\` or pass a run directory`,
    );
  }
}
