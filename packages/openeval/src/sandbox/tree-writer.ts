// Writes a copied-out file or folder to this machine's disk as it streams in, the same for every engine: files with
// runs of zeros left as holes (a sparse file stays sparse and costs no disk), folders, symlinks (never followed) and
// hard links; every name Linux allows is kept as it is (a backslash or `..` inside one name is just characters).
import { createHash } from "node:crypto";
import { chmod, link, mkdir, open, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { displayPath } from "../util/relative-path.ts";
import { SandboxError } from "./errors.ts";
import { readTarStream } from "./read-tar-stream.ts";
import type { CopiedTree, CopyOutResult, OmittedFile } from "./sandbox.ts";

/** Zero runs are looked for at this granularity (a file system block). */
const HOLE = 4096;
const ZEROS = Buffer.alloc(HOLE);

/**
 * An engine's archive of one path (each name starts with that path's own name) written to `target`.
 * `directory`: the path is a folder (for the over-limit answer).
 */
export function writeArchive(
  archive: AsyncIterable<Uint8Array>,
  target: string,
  maxBytes: number,
  directory: boolean,
): Promise<CopyOutResult> {
  return writeTree(target, maxBytes, directory, async (writer) => {
    for await (const { header, data } of readTarStream(archive)) {
      const names = archiveNames(header.path);
      if (header.type === "file") await writer.file(names, header.mode, header.size, data);
      else if (header.type === "directory") await writer.directory(names, header.mode);
      else if (header.type === "symlink") await writer.symlink(names, header.target);
      else if (header.type === "hardlink") await writer.hardlink(names, archiveNames(header.target));
      else writer.skip(names, "not a file, folder or link");
    }
  });
}

/** Fills a TreeWriter at `target`; past the cap nothing is left there. */
export async function writeTree(
  target: string,
  maxBytes: number,
  directory: boolean,
  fill: (writer: TreeWriter) => Promise<void>,
): Promise<CopyOutResult> {
  const writer = new TreeWriter(target, maxBytes);
  try {
    await fill(writer);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    if (error instanceof OverLimit) return { kind: "over-limit", bytes: null, directory };
    throw error;
  }
  const copied = await writer.finish();
  return copied ? { kind: "copied", ...copied } : { kind: "missing" };
}

/** An archive name below the copied path: `workspace/a\b/c` → [`a\b`, `c`] (only `/` separates names). */
function archiveNames(path: string): string[] {
  return path.replace(/\/$/, "").split("/").slice(1);
}

/** Thrown when the files' sizes pass the copy's cap. */
class OverLimit extends Error {
  constructor(readonly bytes: number) {
    super(`over the copy-out limit at ${bytes} bytes`);
  }
}

/**
 * Builds the tree under `root` (which must not exist yet: it becomes the copied file or folder). Paths are the names
 * below the copied path (`[]` is the path itself), so no name is ever parsed for separators. `maxBytes` caps the sum
 * of the files' sizes.
 */
export class TreeWriter {
  /** Sum of the file sizes so far. */
  bytes = 0;
  private top: CopiedTree | null = null;
  private readonly skipped: string[] = [];
  private readonly omitted: OmittedFile[] = [];
  private readonly symlinks = new Set<string>();
  private readonly files = new Set<string>();
  private readonly folderModes: [string, number][] = [];

  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
  ) {}

  async directory(names: string[], mode: number): Promise<void> {
    const path = this.resolve(names, "directory");
    await mkdir(path, { recursive: true, mode: 0o700 });
    // Applied at the end: a read-only folder must still take its children now; the runner must be able to read it.
    this.folderModes.push([path, (mode & 0o777) | 0o700]);
  }

  async symlink(names: string[], target: string): Promise<void> {
    const path = this.resolve(names, "symlink", target);
    await symlink(target, path);
    this.symlinks.add(names.join("/"));
  }

  /** A second name for a file already written by this copy (`to` is its names, like `names`). */
  async hardlink(names: string[], to: string[]): Promise<void> {
    const omitted = this.omitted.find((file) => file.path === to.join("/"));
    if (omitted) return void this.omitted.push({ ...omitted, path: this.resolveName(names) });
    if (!this.files.has(to.join("/")))
      return this.skip(names, `a hard link to ${displayPath(to.join("/"))}, which was not copied`);
    const path = this.resolve(names, "file");
    await link(join(this.root, ...to), path);
    this.files.add(names.join("/"));
  }

  /**
   * `size` is the file's length; `data` its bytes (fewer bytes leave the rest as zeros). A file inside the copied
   * folder that would take the sizes past the cap is hashed as it streams by and listed in `omitted`, not written:
   * the copy still brings everything else. The copied path itself past the cap ends the copy (OverLimit).
   */
  async file(names: string[], mode: number, size: number, data: AsyncIterable<Uint8Array>): Promise<void> {
    if (this.bytes + size > this.maxBytes) {
      if (names.length === 0) throw new OverLimit(size);
      const hash = createHash("sha256");
      for await (const chunk of data) hash.update(chunk);
      return void this.omitted.push({
        path: this.resolveName(names),
        bytes: size,
        sha256: hash.digest("hex"),
        mode: mode & 0o777,
      });
    }
    this.bytes += size;
    const path = this.resolve(names, "file");
    // `wx`: a new file, never one already there (nor anything a symlink there points at).
    const handle = await open(path, "wx", 0o600);
    try {
      let position = 0;
      for await (const chunk of data) {
        await writeSkippingZeros(handle, chunk, position);
        position += chunk.length;
      }
      await handle.truncate(size);
    } finally {
      await handle.close();
    }
    await chmod(path, mode & 0o777);
    this.files.add(names.join("/"));
  }

  /** An entry this machine is not given (devices, FIFOs, sockets: reading one can block or never end). */
  skip(names: string[], why: string): void {
    this.skipped.push(`${displayPath(names.join("/"))}: ${why}`);
  }

  /** Applies the folders' modes (deepest first) and says what was copied; null when nothing was. */
  async finish(): Promise<CopiedTree | null> {
    for (const [path, mode] of this.folderModes.reverse()) await chmod(path, mode);
    return this.top && { ...this.top, skipped: this.skipped, omitted: this.omitted };
  }

  private resolve(names: string[], type: CopiedTree["type"], target = ""): string {
    for (const [index, name] of names.entries()) {
      if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
        throw new SandboxError("archiveUnsafePath", { path: displayPath(names.join("/")) });
      }
      // Nothing is written through a symlink this copy made (an archive could name `link/file` after `link`).
      if (this.symlinks.has(names.slice(0, index + 1).join("/")) && index < names.length - 1) {
        throw new SandboxError("archivePathBelowSymlink", { path: displayPath(names.join("/")) });
      }
    }
    if (names.length === 0) this.top = { type, target, skipped: [], omitted: [] };
    return join(this.root, ...names);
  }

  /** Checks names as resolve() does, for a file that is listed rather than written. */
  private resolveName(names: string[]): string {
    this.resolve(names, "file");
    return names.join("/");
  }
}

/** Writes a chunk at `position`, leaving its all-zero blocks unwritten (holes in a new file read as zeros). */
async function writeSkippingZeros(
  handle: Awaited<ReturnType<typeof open>>,
  chunk: Uint8Array,
  position: number,
): Promise<void> {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  let start = -1;
  for (let offset = 0; offset <= bytes.length; offset += HOLE) {
    const block = bytes.subarray(offset, offset + HOLE);
    const zero = block.length === 0 || block.equals(ZEROS.subarray(0, block.length));
    if (!zero && start === -1) start = offset;
    if (zero && start !== -1) {
      await handle.write(bytes, start, offset - start, position + start);
      start = -1;
    }
  }
  if (start !== -1) await handle.write(bytes, start, bytes.length - start, position + start);
}
