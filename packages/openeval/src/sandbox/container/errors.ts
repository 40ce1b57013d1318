// The container engine's image and engine errors, declared once for every stage that builds, finds or runs an
// image: each message is written here, from the typed facts of the problem, so the words never drift apart.
import { OpenEvalError } from "../../util/errors.ts";
import { PLAIN_TCP_REMEDY } from "../../util/engine-address.ts";
import { ENGINE_REMEDY } from "../errors.ts";

/** The images built from a folder of this checkout: their repository, the command that (re)builds each, and what a
 * stale one was built from. */
export const IMAGE_ROLES = {
  candidate: {
    repository: "openeval-candidate",
    buildCommand: "npx openeval image --candidate",
    source: "images/candidate/ or another OpenCode/Bun version",
  },
  verification: {
    repository: "openeval-verification",
    buildCommand: "npx openeval image --verification",
    source: "images/verification/",
  },
  /** An eval's environment/ as its author wrote it; the harness layer goes over it. */
  "environment-base": {
    repository: "openeval-env-base",
    buildCommand: "npx openeval image --environments",
    source: "the eval's environment/ folder",
  },
  environment: {
    repository: "openeval-env",
    buildCommand: "npx openeval image --environments",
    source: "the eval's environment/ folder, images/environment/ or another OpenCode/Bun version",
  },
} as const;

export type ImageRole = keyof typeof IMAGE_ROLES;

/** Who needed the engine or image: `role` is the image the caller needs (its build command is the remedy),
 * `candidates` the models whose candidates were stopped before any ran. */
export interface ProblemContext {
  role?: ImageRole;
  candidates?: readonly string[];
}

export type ContainerProblem = ProblemContext &
  (
    | { code: "OE_ENGINE_UNREACHABLE"; address: string; reason: string }
    /** Plain TCP to an engine on another machine, not declared `insecure`. */
    | { code: "OE_ENGINE_INSECURE"; address: string }
    /** The engine's TLS files could not be read. */
    | { code: "OE_ENGINE_TLS"; certPath: string; reason: string }
    /** No image of `role` built (no `image`), or the named image is not there; `setting` is where it was named. */
    | { code: "OE_IMAGE_MISSING"; address: string; image?: string; setting?: string }
    | { code: "OE_IMAGE_STALE"; address: string; role: ImageRole; contextHash: string }
    /** An image could not be carried from one engine to another (save → load). */
    | { code: "OE_IMAGE_CARRY_FAILED"; image: string; from: string; to: string; problem: string }
    /** A build that failed (`tag`) or an image folder that cannot be built (`folder`); `output`: the build's last lines. */
    | { code: "OE_IMAGE_BUILD_FAILED"; tag?: string; folder?: string; problem: string; output?: string[] }
  );

export type ContainerErrorCode = ContainerProblem["code"];

export class ContainerError extends OpenEvalError {
  readonly code: ContainerErrorCode;

  constructor(
    readonly problem: ContainerProblem,
    options?: { cause?: unknown },
  ) {
    super(describeProblem(problem), options);
    this.code = problem.code;
  }

  /** The same problem, told for the caller that needed the engine or image (this error kept as the cause). */
  within(context: ProblemContext): ContainerError {
    return new ContainerError({ ...this.problem, ...context }, { cause: this });
  }
}

function describeProblem(problem: ContainerProblem): string {
  const message = describeBare(problem);
  if (!problem.candidates?.length) return message;
  const models = problem.candidates;
  const who = `${models.join(", ")} ${models.length === 1 ? "runs" : "run"} in containers (candidate.isolation, default for real models)`;
  return `${who}, and nothing was run: ${message} Or pass \`--isolation process\` to run them on this machine as the current user, unsandboxed (results are labelled so).`;
}

function describeBare(problem: ContainerProblem): string {
  const build = problem.role ? `\`${IMAGE_ROLES[problem.role].buildCommand}\`` : "";
  switch (problem.code) {
    case "OE_ENGINE_UNREACHABLE":
      return `No container engine answers at ${problem.address} (${problem.reason}). ${ENGINE_REMEDY}.${problem.role ? ` Then ${build} builds the ${problem.role} image.` : ""}`;
    case "OE_ENGINE_INSECURE":
      return `The container engine at ${problem.address} is plain TCP on an address other than loopback, which makes it root on its host for anyone who can reach it; nothing was run. Instead: ${PLAIN_TCP_REMEDY}.`;
    case "OE_ENGINE_TLS":
      return `The TLS files of a container engine could not be read in ${problem.certPath} (${problem.reason}): it needs ca.pem, cert.pem and key.pem there (Docker's DOCKER_CERT_PATH layout).`;
    case "OE_IMAGE_CARRY_FAILED":
      return `The image ${problem.image.slice(0, 19)} could not be carried from the engine at ${problem.from} to the one at ${problem.to}: ${problem.problem}. Check that engine's disk space and log; no work is placed on it for this run.`;
    case "OE_IMAGE_MISSING":
      return describeMissing(problem, build);
    case "OE_IMAGE_STALE":
      return `The ${problem.role} image on ${problem.address} was built from an older ${IMAGE_ROLES[problem.role].source} (its context now hashes to ${problem.contextHash.slice(0, 12)}); rebuild it with ${build}`;
    case "OE_IMAGE_BUILD_FAILED": {
      const subject = problem.tag
        ? `${problem.tag} did not build`
        : `The image folder ${problem.folder} cannot be built`;
      return `${subject}: ${problem.problem}${problem.output ? `\nLast build output:\n${problem.output.join("\n")}` : ""}`;
    }
  }
}

function describeMissing(problem: Extract<ContainerProblem, { code: "OE_IMAGE_MISSING" }>, build: string): string {
  if (!problem.image) return `No ${problem.role} image on ${problem.address}; build it with ${build}`;
  const named =
    problem.role && problem.setting
      ? `The ${problem.role} image ${problem.image} (${problem.setting})`
      : `The image ${problem.image}`;
  if (!problem.role) return `${named} is not on ${problem.address}`;
  // An image named by a setting that is not one of ours: the user builds or pulls it themselves.
  const ours = !problem.setting || problem.image.startsWith(`${IMAGE_ROLES[problem.role].repository}:`);
  return `${named} is not on ${problem.address}; ${ours ? `build it with ${build}` : "build or pull it on that engine"}`;
}
