// The candidate's change: initial vs final snapshot, per file, as unified diffs (ctx.workspace.patches) or, as
// OpenEval's ctx.workspace.diff(path) gives it, one file's text on each side. Binary files and files over
// MAX_DIFF_BYTES are summarized (sizes and hashes), never diffed: a candidate's 20 MB lockfile must not stall judging.
import { unifiedDiff } from "../util/line-diff.ts";
import { displayPath, toSafeRelativePath } from "../util/relative-path.ts";
import type { Evidence } from "./evidence-reader.ts";
import type { FileEntry, Revision } from "./schema.ts";

export interface FileDiff {
  path: string;
  status: "added" | "deleted" | "modified";
  /** Unified diff; for binary and too-large files a one-line summary (sizes, sha256) instead of hunks. */
  patch: string;
  binary: boolean;
  /** Over MAX_DIFF_BYTES on either side: summarized, not diffed. */
  tooLarge: boolean;
  additions: number;
  deletions: number;
}

/** A path whose entry differs between the snapshots, with both sides' entries (absent where it does not exist). */
export interface ChangedFile {
  path: string;
  status: FileDiff["status"];
  before?: FileEntry;
  after?: FileEntry;
}

/** Every changed path, in path order, from the snapshots' entries alone: no file is read. */
export function changedFiles(evidence: Evidence): ChangedFile[] {
  const initial = byPath(evidence.files("initial"));
  const final = byPath(evidence.files("final"));
  return [...new Set([...initial.keys(), ...final.keys()])].sort().flatMap((path): ChangedFile[] => {
    const before = initial.get(path);
    const after = final.get(path);
    if (before && after && sameContent(before, after)) return [];
    const status = !before ? "added" : !after ? "deleted" : "modified";
    return [{ path, status, ...(before ? { before } : {}), ...(after ? { after } : {}) }];
  });
}

export async function diffWorkspace(evidence: Evidence, path?: string): Promise<FileDiff[]> {
  const only = path === undefined ? null : toSafeRelativePath(path);
  const diffs: FileDiff[] = [];
  for (const file of changedFiles(evidence)) {
    if (only === null || file.path === only) diffs.push(await diffFile(evidence, file));
  }
  return diffs;
}

/** One file's text in the initial and final snapshots; null where the file does not exist. */
export async function diffContents(
  evidence: Evidence,
  path: string,
): Promise<{ initial: string | null; final: string | null }> {
  if (typeof path !== "string")
    throw new TypeError(
      "workspace.diff(path) takes one workspace path; workspace.patches() gives every changed file as a unified diff",
    );
  const only = toSafeRelativePath(path);
  const side = async (revision: Revision) =>
    evidence.files(revision).some((entry) => entry.path === only) ? evidence.text(only, revision) : null;
  return { initial: await side("initial"), final: await side("final") };
}

/** Either side larger than this (bytes) is summarized instead of diffed. */
export const MAX_DIFF_BYTES = 4 * 1024 * 1024;

async function diffFile(evidence: Evidence, { path, status, before, after }: ChangedFile): Promise<FileDiff> {
  // Recorded by size and hash only (over the snapshot limits): there is no content to diff.
  const omitted = [before, after].find((entry) => entry?.kind === "file" && entry.omitted);
  if (omitted?.kind === "file") {
    return {
      path,
      status,
      patch: `File ${displayPath(path)} (${omitted.bytes} bytes, sha256 ${omitted.sha256}) ${omitted.omitted!.note}\n`,
      binary: false,
      tooLarge: true,
      additions: 0,
      deletions: 0,
    };
  }
  const summary = (what: string) =>
    `${what} ${displayPath(`a/${path}`)} and ${displayPath(`b/${path}`)} differ (before: ${describe(before)}; after: ${describe(after)})\n`;
  if (sizeOf(before) > MAX_DIFF_BYTES || sizeOf(after) > MAX_DIFF_BYTES) {
    return {
      path,
      status,
      patch: summary(`Files too large to diff (over ${MAX_DIFF_BYTES} bytes):`),
      binary: false,
      tooLarge: true,
      additions: 0,
      deletions: 0,
    };
  }
  const [oldText, newText] = await Promise.all([
    contentOf(evidence, before, "initial"),
    contentOf(evidence, after, "final"),
  ]);
  if (oldText === BINARY || newText === BINARY) {
    return { path, status, patch: summary("Binary files"), binary: true, tooLarge: false, additions: 0, deletions: 0 };
  }
  const patch = unifiedDiff(path, before ? oldText : null, after ? newText : null);
  const lines = patch.split("\n");
  return {
    path,
    status,
    patch,
    binary: false,
    tooLarge: false,
    additions: lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).length,
    deletions: lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).length,
  };
}

const BINARY = Symbol("binary");

function sizeOf(entry: FileEntry | undefined): number {
  return entry?.kind === "file" ? entry.bytes : 0;
}

function describe(entry: FileEntry | undefined): string {
  if (!entry) return "absent";
  return entry.kind === "file" ? `${entry.bytes} bytes, sha256 ${entry.sha256}` : `symlink to ${entry.target}`;
}

async function contentOf(
  evidence: Evidence,
  entry: FileEntry | undefined,
  revision: Revision,
): Promise<string | typeof BINARY> {
  if (!entry) return "";
  if (entry.kind === "symlink") return `symlink -> ${entry.target}\n`;
  const data = await evidence.read(entry.path, revision);
  if (data.includes(0)) return BINARY;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return BINARY;
  }
}

function byPath(entries: FileEntry[]): Map<string, FileEntry> {
  return new Map(entries.map((entry) => [entry.path, entry]));
}

function sameContent(a: FileEntry, b: FileEntry): boolean {
  if (a.kind === "file" && b.kind === "file") return a.sha256 === b.sha256 && a.mode === b.mode;
  return a.kind === "symlink" && b.kind === "symlink" && a.target === b.target;
}
