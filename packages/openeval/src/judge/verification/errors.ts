// Verification errors: each situation's code and message, written once here (the engine and image errors are the
// container engine's own). A command that fails or times out inside the container is a result, never one of these.
import { ENGINE_FAILED } from "../../sandbox/index.ts";
import { SituationError, type Situation, type SituationArgs } from "../../util/errors.ts";

const SITUATIONS = {
  vendorFetchFailed: {
    code: "OE_VENDOR_PACKAGE_FAILED",
    message: ({ pkg, reason }: { pkg: string; reason: string }) =>
      `Could not fetch ${pkg} with npm pack (${reason}); check that npm reaches its registry`,
  },
  vendorIntegrityMismatch: {
    code: "OE_VENDOR_PACKAGE_FAILED",
    message: ({ pkg, integrity, pinned }: { pkg: string; integrity: string; pinned: string }) =>
      `${pkg} from npm has integrity ${integrity}, not the pinned ${pinned}`,
  },
  /** `what` is the call or setting at fault: `verification.run()` or `verification limits`. */
  invalidRequest: {
    code: "OE_INVALID_REQUEST",
    message: ({ what, problems }: { what: string; problems: string }) => `${what}: ${problems}`,
  },
  artifactNotFound: {
    code: "OE_ARTIFACT_NOT_FOUND",
    message: ({ verification, artifact, why }: { verification: string; artifact: string; why: string }) =>
      `Verification ${verification} has no artifact "${artifact}": ${why}`,
  },
  artifactMissing: {
    code: "OE_ARTIFACT_CORRUPT",
    message: ({ verification, artifact, file }: { verification: string; artifact: string; file: string }) =>
      `Artifact "${artifact}" of verification ${verification} is missing from ${file}`,
  },
  artifactAltered: {
    code: "OE_ARTIFACT_CORRUPT",
    message: ({ verification, artifact }: { verification: string; artifact: string }) =>
      `Artifact "${artifact}" of verification ${verification} does not match its recorded sha256; it was altered after the run`,
  },
  /** The engine failed a verification's container; `reason` is its error, in the sandbox's words, under its code. */
  engineFailed: {
    code: ENGINE_FAILED,
    message: ({ verification, reason }: { verification?: string; reason: string }) =>
      verification === undefined ? reason : `Verification ${verification} failed in the engine: ${reason}`,
  },
} as const satisfies Record<string, Situation>;

type Situations = typeof SITUATIONS;
type VerificationSituation = keyof Situations;

export class VerificationError<S extends VerificationSituation = VerificationSituation> extends SituationError<
  Situations,
  S
> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}
