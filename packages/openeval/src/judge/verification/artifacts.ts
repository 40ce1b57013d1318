// Artifacts: files a verification wrote in its workspace, copied out under a size cap (a larger one is refused and
// reported, never truncated), kept beside the receipt with their sha256, and hash-checked again when read.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import type { Sandbox } from "../../sandbox/index.ts";
import { sha256 } from "../../util/hash.ts";
import { toSafeRelativePath } from "../../util/relative-path.ts";
import { createScratchDir, removeScratchDir } from "../../util/scratch-dir.ts";
import { VerificationError } from "./errors.ts";
import type { RefusedArtifact, VerificationResult } from "../../recording/index.ts";
import { WORKSPACE } from "./verification-sandbox.ts";

export const ARTIFACTS_DIRECTORY = "artifacts";

export type CopiedArtifact =
  | { kind: "copied"; path: string; data: Uint8Array }
  | { kind: "missing"; path: string }
  | ({ kind: "refused" } & RefusedArtifact);

/** Copies one workspace-relative file out of the sandbox (through a scratch folder), or says why not. */
export async function copyArtifact(
  sandbox: Sandbox,
  path: string,
  capBytes: number,
  workspace = WORKSPACE,
): Promise<CopiedArtifact> {
  const scratch = await createScratchDir("artifact");
  try {
    const file = join(scratch, "artifact");
    const copied = await sandbox.copyOut(posix.join(workspace, path), file, { maxBytes: capBytes });
    if (copied.kind === "missing") return { kind: "missing", path };
    if (copied.kind === "over-limit") {
      if (copied.directory) return { kind: "refused", path, reason: "is a folder, not a file", bytes: null };
      if (copied.bytes === null)
        return {
          kind: "refused",
          path,
          reason: `grew over the ${capBytes}-byte artifact limit while being copied`,
          bytes: null,
        };
      return {
        kind: "refused",
        path,
        reason: `is ${copied.bytes} bytes, over the ${capBytes}-byte artifact limit`,
        bytes: copied.bytes,
      };
    }
    if (copied.type === "directory") return { kind: "refused", path, reason: "is a folder, not a file", bytes: null };
    if (copied.type === "symlink")
      return {
        kind: "refused",
        path,
        reason: `is a symlink (to ${copied.target}); artifacts are regular files`,
        bytes: null,
      };
    return { kind: "copied", path, data: new Uint8Array(await readFile(file)) };
  } finally {
    await removeScratchDir(scratch);
  }
}

/**
 * Reads an artifact kept with a judge run after checking it against the sha256 in the result.
 * @example
 * const png = await readVerificationArtifact(result, "shot.png", join(judgeRunDirectory, "verification"));
 */
export async function readVerificationArtifact(
  result: Pick<VerificationResult, "id" | "artifacts" | "missingArtifacts" | "refusedArtifacts">,
  path: string,
  directory: string,
): Promise<Uint8Array> {
  const safe = toSafeRelativePath(path);
  const artifact = result.artifacts.find((candidate) => candidate.path === safe);
  if (!artifact) {
    const refused = result.refusedArtifacts.find((candidate) => candidate.path === safe);
    const why = refused
      ? `it was refused: it ${refused.reason}`
      : result.missingArtifacts.includes(safe)
        ? "the commands did not create it"
        : "it was not requested in `artifacts`";
    throw new VerificationError("artifactNotFound", { verification: result.id, artifact: safe, why });
  }
  const file = join(directory, toSafeRelativePath(result.id), ARTIFACTS_DIRECTORY, safe);
  if (!existsSync(file))
    throw new VerificationError("artifactMissing", { verification: result.id, artifact: safe, file });
  const data = new Uint8Array(await readFile(file));
  if (sha256(data) !== artifact.sha256) {
    throw new VerificationError("artifactAltered", { verification: result.id, artifact: safe });
  }
  return data;
}
