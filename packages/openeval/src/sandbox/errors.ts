// Sandbox errors: each situation's code and message, written once here. A command that fails or times out inside a
// sandbox is an outcome, never one of these; these mean the sandbox itself could not be had.
import { SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

const SITUATIONS = {
  unknownEngine: {
    code: "OE_UNKNOWN_ENGINE",
    message: ({ name, known }: { name: string; known: readonly string[] }) =>
      `Unknown sandbox engine "${name}"; use one of: ${known.join(", ")}`,
  },
  /** The engine refused or failed a request; its own words follow. */
  engineRequestFailed: {
    code: "OE_ENGINE_FAILED",
    message: ({ request, address, reason }: { request: string; address: string; reason: string }) =>
      `Could not ${request} on ${address}: ${reason}`,
  },
  emptyPool: {
    code: "OE_ENGINE_POOL_EMPTY",
    message: (_: Record<string, never>) => "An engine pool needs at least one engine",
  },
  unknownPoolEngine: {
    code: "OE_UNKNOWN_POOL_ENGINE",
    message: ({ name, known }: { name: string; known: readonly string[] }) =>
      `No engine "${name}" in the pool; its engines are: ${known.join(", ")}`,
  },
  /** Every engine of the pool is lost or unusable: the work waiting for one is interrupted, to be redone. */
  noEngineAnswers: {
    code: "OE_NO_ENGINE_ANSWERS",
    message: ({ engines }: { engines: string }) =>
      `No engine of the pool can take work: ${engines}. Start them again (or fix what each says); the next openeval run redoes the interrupted work`,
  },
  archiveUnsafePath: {
    code: "OE_ARCHIVE_UNSAFE_PATH",
    message: ({ path }: { path: string }) => `The engine's archive names an unsafe path ${path}; copy-out refused it`,
  },
  archivePathBelowSymlink: {
    code: "OE_ARCHIVE_UNSAFE_PATH",
    message: ({ path }: { path: string }) => `The engine's archive names ${path} below a symlink; copy-out refused it`,
  },
} as const satisfies Record<string, Situation>;

type Situations = typeof SITUATIONS;
/** The engine-failure code, for a family that passes a sandbox failure on under the sandbox's code. */
export const ENGINE_FAILED = SITUATIONS.engineRequestFailed.code;
type SandboxSituation = keyof Situations;

export class SandboxError<S extends SandboxSituation = SandboxSituation> extends SituationError<Situations, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<Situations[S]>) {
    super(SITUATIONS, situation, data, options);
  }
}

/** How to get a container engine, for every message that needs one. */
export const ENGINE_REMEDY =
  "Start Docker or Podman there, or point DOCKER_HOST at one; on a Debian machine without one, " +
  "`sudo bash .ci/setup-container-engine.sh` installs and starts Docker";
