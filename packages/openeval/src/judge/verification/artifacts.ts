// Artifacts: files a verification wrote in its workspace, copied out under a size cap (a larger one is refused and
// reported, never truncated), kept beside the receipt with their sha256, and hash-checked again when read.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import type { Readable } from "node:stream";
import { sha256 } from "../../util/hash.ts";
import { toSafeRelativePath } from "../../util/relative-path.ts";
import { statusOf } from "./engine.ts";
import { VerificationError } from "./errors.ts";
import type { Sandbox } from "./sandbox.ts";
import { WORKSPACE } from "./sandbox.ts";
import type { RefusedArtifact, VerificationResult } from "./schema.ts";
import { unpackTar } from "./tar.ts";

export const ARTIFACTS_DIRECTORY = "artifacts";
/** Room for the tar headers around one file (including pax records for long names). */
const TAR_OVERHEAD = 16 * 1024;

export type CopiedArtifact = { kind: "copied"; path: string; data: Uint8Array } | { kind: "missing"; path: string } | ({ kind: "refused" } & RefusedArtifact);

/** Copies one workspace-relative file out of the container, or says why not. */
export async function copyArtifact(sandbox: Sandbox, path: string, capBytes: number): Promise<CopiedArtifact> {
  let response: Readable & { headers?: Record<string, string | undefined> };
  try {
    response = (await sandbox.container.getArchive({ path: posix.join(WORKSPACE, path) })) as unknown as typeof response;
  } catch (error) {
    if (statusOf(error) === 404) return { kind: "missing", path };
    throw error;
  }
  // The engine states the size before sending anything: refuse early rather than download a huge file.
  const stat = parseStat(response.headers?.["x-docker-container-path-stat"]);
  if (stat && isDirectory(stat.mode)) return refuse(response, { path, reason: "is a folder, not a file", bytes: null });
  if (stat && stat.size > capBytes) return refuse(response, { path, reason: `is ${stat.size} bytes, over the ${capBytes}-byte artifact limit`, bytes: stat.size });
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of response) {
    received += (chunk as Uint8Array).length;
    // It may still be growing (a background process): stop reading past the cap.
    if (received > capBytes + TAR_OVERHEAD) return refuse(response, { path, reason: `grew over the ${capBytes}-byte artifact limit while being copied`, bytes: null });
    chunks.push(chunk as Uint8Array);
  }
  const entry = unpackTar(Buffer.concat(chunks))[0];
  if (!entry) return { kind: "missing", path };
  if (entry.type === "symlink") return { kind: "refused", path, reason: `is a symlink (to ${entry.target}); artifacts are regular files`, bytes: null };
  if (entry.type !== "file") return { kind: "refused", path, reason: "is not a regular file", bytes: null };
  if (entry.data.length > capBytes) return { kind: "refused", path, reason: `is ${entry.data.length} bytes, over the ${capBytes}-byte artifact limit`, bytes: entry.data.length };
  return { kind: "copied", path, data: entry.data };
}

/**
 * Reads an artifact kept with a judge run after checking it against the sha256 in the result.
 * @example
 * const png = await readVerificationArtifact(result, "shot.png", join(judgeRunDirectory, "verification"));
 */
export async function readVerificationArtifact(result: Pick<VerificationResult, "id" | "artifacts" | "missingArtifacts" | "refusedArtifacts">, path: string, directory: string): Promise<Uint8Array> {
  const safe = toSafeRelativePath(path);
  const artifact = result.artifacts.find((candidate) => candidate.path === safe);
  if (!artifact) {
    const refused = result.refusedArtifacts.find((candidate) => candidate.path === safe);
    const why = refused ? `it was refused: it ${refused.reason}` : result.missingArtifacts.includes(safe) ? "the commands did not create it" : "it was not requested in `artifacts`";
    throw new VerificationError("ARTIFACT_NOT_FOUND", `Verification ${result.id} has no artifact "${safe}": ${why}`);
  }
  const file = join(directory, toSafeRelativePath(result.id), ARTIFACTS_DIRECTORY, safe);
  if (!existsSync(file)) throw new VerificationError("ARTIFACT_CORRUPT", `Artifact "${safe}" of verification ${result.id} is missing from ${file}`);
  const data = new Uint8Array(await readFile(file));
  if (sha256(data) !== artifact.sha256) {
    throw new VerificationError("ARTIFACT_CORRUPT", `Artifact "${safe}" of verification ${result.id} does not match its recorded sha256; it was altered after the run`);
  }
  return data;
}

function refuse(response: Readable, refused: RefusedArtifact): CopiedArtifact {
  response.destroy();
  return { kind: "refused", ...refused };
}

function parseStat(header: string | undefined): { size: number; mode: number } | null {
  if (!header) return null;
  try {
    const stat = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { size?: number; mode?: number };
    return typeof stat.size === "number" && typeof stat.mode === "number" ? { size: stat.size, mode: stat.mode } : null;
  } catch {
    return null;
  }
}

/** Go's os.ModeDir, as the engine encodes the mode. */
function isDirectory(mode: number): boolean {
  return mode >= 2 ** 31;
}
