// runVerification(): one sandboxed check over a recorded workspace snapshot, as a sequence of named
// steps: validate, create the container, copy in, run the commands, copy artifacts out, remove, keep the receipt.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { toSafeRelativePath, UnsafePathError } from "../../util/relative-path.ts";
import { writeFileAtomic, writeJsonAtomic } from "../../util/files.ts";
import { sha256 } from "../../util/hash.ts";
import { describeZodIssues } from "../../util/zod-issues.ts";
import { ARTIFACTS_DIRECTORY, copyArtifact } from "./artifacts.ts";
import { BoundedBuffer, type EngineOptions, type Sandbox, type SandboxUser } from "../../sandbox/index.ts";
import type { VerificationEnvironment } from "../schema.ts";
import { VerificationError } from "./errors.ts";
import {
  CHECK_FILES,
  openVerificationEngine,
  verificationSpec,
  withVerificationErrors,
  WORKSPACE,
} from "./verification-sandbox.ts";
import {
  VerificationLimitsSchema,
  VerificationRequestSchema,
  type CommandResult,
  type ParsedVerificationLimits,
  type ParsedVerificationRequest,
  type VerificationLimits,
  type VerificationReceipt,
  type VerificationRequest,
  type VerificationResult,
} from "../../recording/index.ts";
import { checkFileEntries, withOwner, workspaceEntries, type SnapshotReader } from "./snapshot-archive.ts";

export interface RunVerificationOptions {
  /** The pinned image id (`sha256:…`) from resolveVerificationImage(); null when there is none. */
  image: string | null;
  /** Why there is no verification image. */
  unavailable?: string | null;
  /** The eval's environment image, for `image: "environment"` requests. */
  environment?: VerificationEnvironment | null;
  evidence: SnapshotReader;
  request: VerificationRequest;
  limits: VerificationLimits;
  labels: { judgeRun: string };
  /** The judge run's `verification/` folder; this run keeps its receipt, logs and artifacts in `<directory>/<id>/`. */
  directory: string;
  engine?: EngineOptions;
}

export const RECEIPT_FILE = "receipt.json";

/**
 * Runs the request's commands in a fresh locked-down container over the chosen snapshot, and keeps the receipt.
 * @example
 * const result = await runVerification({ image, evidence, directory, labels: { judgeRun },
 *   limits: { cpus: 1, memoryMiB: 1024, pids: 256, logBytes: 1 << 20, artifactBytes: 8 << 20 },
 *   request: { revision: "final", timeoutMs: 60_000, commands: [["python3", "-m", "pytest", "-q"]] } });
 */
export async function runVerification(options: RunVerificationOptions): Promise<VerificationResult> {
  const request = parseRequest(options.request);
  const limits = parseLimits(options.limits);
  const id = `v_${randomBytes(6).toString("hex")}`;
  const startedAt = new Date();
  const place = verificationPlace(request, options);
  const engine = await openVerificationEngine(options.engine);
  // Read (and hash-check) the snapshot before any container exists.
  const workspace = await workspaceEntries(options.evidence, request.revision);

  const spec = verificationSpec({
    imageId: place.image,
    limits,
    timeoutMs: request.timeoutMs,
    id,
    judgeRun: options.labels.judgeRun,
    ...(place.environment ? { environment: place.environment } : {}),
  });
  const sandbox = await withVerificationErrors(() => engine.create(spec));
  const owner = place.environment ? ROOT : sandbox.user;
  let result: VerificationResult;
  let artifacts: { path: string; data: Uint8Array }[] = [];
  try {
    await sandbox.copyIn(place.workspace, withOwner(workspace, owner));
    await sandbox.copyIn(CHECK_FILES, checkFileEntries(request.files ?? {}));
    const run = await runCommands(sandbox, request, limits, place.workspace, owner);
    const copied = await copyArtifacts(sandbox, request.artifacts ?? [], limits.artifactBytes, place.workspace);
    artifacts = copied.files;
    result = {
      id,
      ...run,
      artifacts: copied.listed,
      missingArtifacts: copied.missing,
      refusedArtifacts: copied.refused,
    };
  } catch (error) {
    if (error instanceof VerificationError) throw error;
    throw new VerificationError(
      "engineFailed",
      { verification: id, reason: (error as Error).message },
      { cause: error },
    );
  } finally {
    // Also after a timeout or an error; a crash of this process leaves it for reapVerificationContainers().
    await sandbox.remove().catch(() => {});
  }

  await keepReceipt(
    join(options.directory, id),
    {
      format: "openeval.verification-receipt",
      version: 1,
      result,
      imageId: place.image,
      request,
      limits,
      startedAt: startedAt.toISOString(),
      elapsedMs: Date.now() - startedAt.getTime(),
    },
    artifacts,
  );
  return result;
}

/** The root user, without capabilities: who runs an environment's checks (its files may belong to anyone). */
const ROOT: SandboxUser = { uid: 0, gid: 0 };

/** Which image the request runs in, and where its snapshot goes: the verification image's /workspace, or the
 * environment image's working directory. */
function verificationPlace(request: ParsedVerificationRequest, options: RunVerificationOptions) {
  if (request.image === "environment") {
    if (!options.environment)
      throw new VerificationError("invalidRequest", {
        what: "verification.run()",
        problems: 'image: "environment" needs an eval with environment/ (its own image); this eval has none',
      });
    return {
      image: options.environment.image,
      workspace: options.environment.workdir,
      environment: options.environment,
    };
  }
  // The reason the run could not resolve its image, as every verification of that run says it.
  if (!options.image) throw new Error(options.unavailable ?? "no verification image");
  return { image: options.image, workspace: WORKSPACE, environment: null };
}

function parseRequest(request: VerificationRequest): ParsedVerificationRequest {
  const parsed = VerificationRequestSchema.safeParse(request);
  if (!parsed.success)
    throw new VerificationError("invalidRequest", {
      what: "verification.run()",
      problems: describeZodIssues(parsed.error).join("; "),
    });
  try {
    // Paths are relative: cwd and artifacts to the workspace, files to the check folder; none may leave them.
    const cwd =
      parsed.data.cwd === undefined || parsed.data.cwd === "." ? undefined : toSafeRelativePath(parsed.data.cwd);
    const files =
      parsed.data.files &&
      Object.fromEntries(Object.entries(parsed.data.files).map(([name, text]) => [toSafeRelativePath(name), text]));
    const artifacts = parsed.data.artifacts && [
      ...new Set(parsed.data.artifacts.map((path) => toSafeRelativePath(path))),
    ];
    return { ...parsed.data, cwd, files, artifacts };
  } catch (error) {
    if (error instanceof UnsafePathError)
      throw new VerificationError("invalidRequest", { what: "verification.run()", problems: error.message });
    throw error;
  }
}

function parseLimits(limits: VerificationLimits): ParsedVerificationLimits {
  const parsed = VerificationLimitsSchema.safeParse(limits);
  if (!parsed.success)
    throw new VerificationError("invalidRequest", {
      what: "verification limits",
      problems: describeZodIssues(parsed.error).join("; "),
    });
  return parsed.data;
}

type CommandsOutcome = Pick<
  VerificationResult,
  "state" | "exitCode" | "commands" | "stdout" | "stderr" | "logsTruncated"
>;

/** Runs the argv list in order until one exits non-zero or the deadline passes (which kills the sandbox). */
async function runCommands(
  sandbox: Sandbox,
  request: ParsedVerificationRequest,
  limits: ParsedVerificationLimits,
  workspace: string,
  user: SandboxUser,
): Promise<CommandsOutcome> {
  const stdout = new BoundedBuffer(limits.logBytes);
  const stderr = new BoundedBuffer(limits.logBytes);
  const cwd = request.cwd ? `${workspace}/${request.cwd}` : workspace;
  const deadline = Date.now() + request.timeoutMs;
  const commands: CommandResult[] = [];
  let state: VerificationResult["state"] = "completed";
  let exitCode: number | null = 0;
  for (const argv of request.commands) {
    const outcome = await sandbox.run(argv, { cwd, deadline, stdout, stderr, user });
    commands.push({ argv, exitCode: outcome.exitCode, elapsedMs: outcome.elapsedMs });
    if (outcome.timedOut) {
      state = "timed_out";
      exitCode = null;
      break;
    }
    exitCode = outcome.exitCode;
    if (exitCode !== 0) break;
  }
  return {
    state,
    exitCode,
    commands,
    stdout: stdout.text(),
    stderr: stderr.text(),
    logsTruncated: stdout.truncated || stderr.truncated,
  };
}

async function copyArtifacts(sandbox: Sandbox, paths: string[], capBytes: number, workspace: string) {
  const files: { path: string; data: Uint8Array }[] = [];
  const listed: VerificationResult["artifacts"] = [];
  const missing: string[] = [];
  const refused: VerificationResult["refusedArtifacts"] = [];
  for (const path of paths) {
    const copied = await copyArtifact(sandbox, path, capBytes, workspace);
    if (copied.kind === "missing") missing.push(path);
    else if (copied.kind === "refused") refused.push({ path, reason: copied.reason, bytes: copied.bytes });
    else {
      files.push(copied);
      listed.push({ path, bytes: copied.data.length, sha256: sha256(copied.data) });
    }
  }
  return { files, listed, missing, refused };
}

/** Keeps a verification's artifacts, logs and receipt in `directory` (its `<id>/` folder). */
export async function keepReceipt(
  directory: string,
  receipt: VerificationReceipt,
  artifacts: { path: string; data: Uint8Array }[],
): Promise<void> {
  for (const artifact of artifacts)
    await writeFileAtomic(join(directory, ARTIFACTS_DIRECTORY, artifact.path), artifact.data);
  await writeFileAtomic(join(directory, "stdout.log"), receipt.result.stdout);
  await writeFileAtomic(join(directory, "stderr.log"), receipt.result.stderr);
  // Written last: a receipt names only files that are already in place.
  await writeJsonAtomic(join(directory, RECEIPT_FILE), receipt);
}
