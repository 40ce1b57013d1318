// Reads evidence written by evidence-writer: checks the manifest against its expected hash and every file
// against the sha256 the manifest gives, and refuses any path that could leave the recording. It reads through
// Bun.file, so a code-judge worker loads no Node fs module to grade (judge/bundle-program.ts).
import { join, posix } from "node:path";
import { sha256 } from "../util/hash.ts";
import { toSafeRelativePath } from "../util/relative-path.ts";
import { EvidenceError } from "./errors.ts";
import { MANIFEST_FILE } from "./evidence-writer.ts";
import { OBJECTS_DIRECTORY } from "./snapshot.ts";
import { EVIDENCE_VERSION } from "./format.ts";
import { EvidenceManifestSchema, type EvidenceManifest, type FileEntry, type Revision } from "./schema.ts";

const MAX_SYMLINK_HOPS = 8;

export interface Evidence {
  directory: string;
  hash: string;
  manifest: EvidenceManifest;
  files(revision?: Revision): FileEntry[];
  read(path: string, revision?: Revision): Promise<Uint8Array>;
  text(path: string, revision?: Revision): Promise<string>;
  /** A file of the recording (events, native archive) after checking it against the sha256 the manifest gives. */
  readVerified(file: string, expectedSha256: string): Promise<Uint8Array>;
}

/**
 * Opens the evidence at `directory`. With `expectedHash` the manifest must hash to it (see openSealedEvidence);
 * without one it is untrusted input and is validated against the format's schema.
 *
 * @example const evidence = await openEvidence(ref.directory, ref.hash);
 */
export async function openEvidence(directory: string, expectedHash?: string): Promise<Evidence> {
  if (expectedHash !== undefined) return openSealedEvidence(directory, expectedHash);
  const { path, hash, raw } = await readManifest(directory);
  const parsed = EvidenceManifestSchema.safeParse(raw);
  if (!parsed.success) throw new EvidenceError("manifestMalformed", { path, problem: parsed.error.message });
  return new VerifiedEvidence(directory, hash, parsed.data);
}

/**
 * Opens evidence whose manifest must hash to `expectedHash`, the identity recorded when it was written. Bytes with
 * that hash are the ones the harness validated when it wrote them, so they are not parsed again: this path builds no
 * schema, which keeps zod construction out of every code-judge worker's start.
 *
 * @example const evidence = await openSealedEvidence(evalRun.evidence.directory, evalRun.evidence.hash);
 */
export async function openSealedEvidence(directory: string, expectedHash: string): Promise<Evidence> {
  const { hash, raw } = await readManifest(directory, expectedHash);
  return new VerifiedEvidence(directory, hash, raw as EvidenceManifest);
}

/** The manifest's sha256 and JSON, refused unless it hashes to `expectedHash` (when given) and is of this reader's version. */
async function readManifest(
  directory: string,
  expectedHash?: string,
): Promise<{ path: string; hash: string; raw: unknown }> {
  const path = join(directory, MANIFEST_FILE);
  const file = Bun.file(path);
  if (!(await file.exists())) {
    throw new EvidenceError("manifestMissing", { path });
  }
  const bytes = await file.bytes();
  const hash = sha256(bytes);
  if (expectedHash !== undefined && hash !== expectedHash) {
    throw new EvidenceError("manifestChanged", { path, hash, expectedHash });
  }
  const raw = JSON.parse(new TextDecoder().decode(bytes)) as { version?: unknown };
  if (raw.version !== EVIDENCE_VERSION) {
    throw new EvidenceError("versionUnsupported", {
      directory,
      version: String(raw.version),
      readable: EVIDENCE_VERSION,
    });
  }
  return { path, hash, raw };
}

class VerifiedEvidence implements Evidence {
  constructor(
    readonly directory: string,
    readonly hash: string,
    readonly manifest: EvidenceManifest,
  ) {}

  files(revision: Revision = "final"): FileEntry[] {
    return this.manifest[revision]?.files ?? [];
  }

  async read(path: string, revision: Revision = "final"): Promise<Uint8Array> {
    const entry = this.resolveEntry(toSafeRelativePath(path), revision, 0);
    if (entry.omitted) {
      throw new EvidenceError("fileOmitted", {
        path: entry.path,
        bytes: entry.bytes,
        sha256: entry.sha256,
        revision,
        note: entry.omitted.note,
      });
    }
    return this.readVerified(posix.join(OBJECTS_DIRECTORY, entry.sha256), entry.sha256);
  }

  async text(path: string, revision: Revision = "final"): Promise<string> {
    return new TextDecoder().decode(await this.read(path, revision));
  }

  async readVerified(file: string, expectedSha256: string): Promise<Uint8Array> {
    const path = join(this.directory, toSafeRelativePath(file));
    const blob = Bun.file(path);
    if (!(await blob.exists())) throw new EvidenceError("recordedFileMissing", { file, directory: this.directory });
    const data = await blob.bytes();
    if (sha256(data) !== expectedSha256) {
      throw new EvidenceError("recordedFileAltered", { file, directory: this.directory });
    }
    return data;
  }

  private resolveEntry(path: string, revision: Revision, hops: number): Extract<FileEntry, { kind: "file" }> {
    const entry = this.files(revision).find((candidate) => candidate.path === path);
    if (!entry) {
      throw new EvidenceError("fileNotInSnapshot", { path, revision });
    }
    if (entry.kind === "file") return entry;
    // A symlink is followed only to another file of the same snapshot.
    if (hops >= MAX_SYMLINK_HOPS || posix.isAbsolute(entry.target)) {
      throw new EvidenceError("symlinkOutsideSnapshot", { path, target: entry.target });
    }
    const target = posix.normalize(posix.join(posix.dirname(path), entry.target));
    return this.resolveEntry(toSafeRelativePath(target), revision, hops + 1);
  }
}
