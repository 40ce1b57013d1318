// Unified diffs (`git diff`, `diff -u`, hand-written) → the files they touch and each file's added lines.
// Hunk bodies are read by the counts in their `@@` header, so a removed line that starts with "--" is never taken
// for a file header; text outside hunks (Markdown prose, `index` lines) is skipped.

export interface FilePatch {
  /** Workspace-relative path: the new path, or the old one for a deleted file. `a/`/`b/` prefixes removed. */
  path: string;
  status: "added" | "deleted" | "modified";
  /** The added lines of every hunk of this file, in diff order, without their leading "+". */
  addedLines: string[];
  binary: boolean;
}

/** A diff that cannot be read as written; `line` counts from 1 within the text given to the parser. */
export class DiffSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "DiffSyntaxError";
  }
}

interface Draft {
  oldPath: string | null;
  newPath: string | null;
  addedLines: string[];
  binary: boolean;
  /** Started by `diff --git`: extended header lines (new file mode, rename from, …) may follow. */
  git: boolean;
  sawFileHeader: boolean;
  hunks: number;
  newFile: boolean;
  deletedFile: boolean;
  renamed: boolean;
}

interface Hunk {
  header: string;
  line: number;
  /** Lines still expected by the header's counts; null for a bare `@@` header (read until a non-hunk line). */
  oldLeft: number | null;
  newLeft: number | null;
}

const FIX_COUNTS =
  "correct the counts, or write a bare @@ line to have the hunk read up to its last +, - or context line";
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Reads every file of a unified diff. Throws DiffSyntaxError when a hunk contradicts its `@@` counts.
 * @example
 * parseUnifiedDiff("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n") // [{ path: "x.py", status: "modified", addedLines: ["b"], binary: false }]
 */
export function parseUnifiedDiff(text: string): FilePatch[] {
  const lines = text.split(/\r?\n/);
  const drafts: Draft[] = [];
  let file: Draft | null = null;
  let hunk: Hunk | null = null;
  let completed: Hunk | null = null; // the hunk whose counts ran out on the previous line

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (hunk && file) {
      if (readHunkLine(hunk, file, line, lines[index + 1], index + 1)) {
        if (hunk.oldLeft === 0 && hunk.newLeft === 0) [completed, hunk] = [hunk, null];
        continue;
      }
      endEarly(hunk, index + 1);
      hunk = null;
    }
    if (line.startsWith("\\")) continue; // "\ No newline at end of file"
    const previous = completed;
    completed = null;

    if (line.startsWith("diff --git ")) {
      file = startFile(drafts, { ...gitHeaderPaths(line.slice("diff --git ".length)), git: true });
    } else if (line.startsWith("--- ") && lines[index + 1]?.startsWith("+++ ")) {
      const oldPath = headerPath(line.slice(4), "a/");
      const newPath = headerPath(lines[index + 1]!.slice(4), "b/");
      if (file?.git && !file.sawFileHeader && file.hunks === 0)
        Object.assign(file, { oldPath, newPath, sawFileHeader: true });
      else file = startFile(drafts, { oldPath, newPath, git: false, sawFileHeader: true });
      index++;
    } else if (line.startsWith("@@")) {
      if (!file)
        throw new DiffSyntaxError(
          index + 1,
          `hunk "${line}" has no file header before it; start each file with "--- a/<path>" and "+++ b/<path>"`,
        );
      file.hunks++;
      hunk = openHunk(line, index + 1);
    } else if (file?.git && file.hunks === 0 && readGitExtendedHeader(file, line)) {
      // consumed
    } else if (/^Binary files .+ and .+ differ$/.test(line)) {
      if (file?.git && file.hunks === 0) file.binary = true;
      else file = startFile(drafts, { ...binaryPaths(line), git: false, sawFileHeader: true, binary: true });
    } else if (previous && /^[-+ ]/.test(line) && line !== "-- ") {
      // "-- " is the signature separator `git format-patch` writes after the last hunk.
      throw new DiffSyntaxError(
        index + 1,
        `hunk "${previous.header}" (line ${previous.line}) has more lines than its header counts; ${FIX_COUNTS}`,
      );
    }
  }
  if (hunk) endEarly(hunk, lines.length);
  return finish(drafts);
}

/** Consumes one line of a hunk body; false when the line cannot belong to the hunk. */
function readHunkLine(hunk: Hunk, file: Draft, line: string, next: string | undefined, number: number): boolean {
  const counted = hunk.oldLeft !== null && hunk.newLeft !== null;
  if (
    !counted &&
    (line.startsWith("@@") || line.startsWith("diff --git ") || (line.startsWith("--- ") && next?.startsWith("+++ ")))
  )
    return false;
  const kind = line === "" ? " " : line[0];
  if (kind === "\\") return true;
  if (kind !== " " && kind !== "-" && kind !== "+") return false;
  if (kind === "+") file.addedLines.push(line.slice(1));
  if (counted) {
    if (kind !== "+") hunk.oldLeft!--;
    if (kind !== "-") hunk.newLeft!--;
    if (hunk.oldLeft! < 0 || hunk.newLeft! < 0) {
      throw new DiffSyntaxError(
        number,
        `hunk "${hunk.header}" (line ${hunk.line}) has more ${hunk.oldLeft! < 0 ? "old (removed or context)" : "new (added or context)"} lines than its header counts; ${FIX_COUNTS}`,
      );
    }
  }
  return true;
}

/** A hunk cut short is accepted only when the missing lines could all be context (an editor trimmed blank lines). */
function endEarly(hunk: Hunk, number: number): void {
  if (hunk.oldLeft === null || hunk.oldLeft === hunk.newLeft) return;
  throw new DiffSyntaxError(
    number,
    `hunk "${hunk.header}" (line ${hunk.line}) ends ${hunk.oldLeft} old and ${hunk.newLeft} new lines short of its header's counts; ${FIX_COUNTS}`,
  );
}

function openHunk(line: string, number: number): Hunk | null {
  const match = HUNK_HEADER.exec(line);
  if (!match) return { header: line, line: number, oldLeft: null, newLeft: null }; // bare "@@", as people write by hand
  const oldLeft = match[1] === undefined ? 1 : Number(match[1]);
  const newLeft = match[2] === undefined ? 1 : Number(match[2]);
  return oldLeft === 0 && newLeft === 0 ? null : { header: match[0], line: number, oldLeft, newLeft };
}

function readGitExtendedHeader(file: Draft, line: string): boolean {
  if (/^new file mode /.test(line)) file.newFile = true;
  else if (/^deleted file mode /.test(line)) file.deletedFile = true;
  else if (line.startsWith("rename from "))
    [file.oldPath, file.renamed] = [plainPath(line.slice("rename from ".length)), true];
  else if (line.startsWith("rename to "))
    [file.newPath, file.renamed] = [plainPath(line.slice("rename to ".length)), true];
  else if (line.startsWith("copy to ")) [file.newPath, file.newFile] = [plainPath(line.slice("copy to ".length)), true];
  else if (line === "GIT binary patch") file.binary = true;
  else return /^(index |old mode |new mode |similarity index |dissimilarity index |copy from )/.test(line);
  return true;
}

function startFile(
  drafts: Draft[],
  start: Pick<Draft, "oldPath" | "newPath" | "git"> & Partial<Pick<Draft, "sawFileHeader" | "binary">>,
): Draft {
  const draft: Draft = {
    addedLines: [],
    binary: false,
    sawFileHeader: false,
    hunks: 0,
    newFile: false,
    deletedFile: false,
    renamed: false,
    ...start,
  };
  drafts.push(draft);
  return draft;
}

/** Drafts → one FilePatch per path. A rename is its old path deleted and its new path added (as a workspace
 * diff shows it); a path that appears twice (two diff blocks) gets one entry with all its added lines. */
function finish(drafts: Draft[]): FilePatch[] {
  const byPath = new Map<string, FilePatch>();
  const add = (patch: FilePatch) => {
    const existing = byPath.get(patch.path);
    if (!existing) byPath.set(patch.path, patch);
    else
      byPath.set(patch.path, {
        ...existing,
        addedLines: [...existing.addedLines, ...patch.addedLines],
        binary: existing.binary || patch.binary,
      });
  };
  for (const draft of drafts) {
    const binary = draft.binary;
    if (draft.renamed && draft.oldPath && draft.newPath && draft.oldPath !== draft.newPath) {
      add({ path: draft.oldPath, status: "deleted", addedLines: [], binary });
      add({ path: draft.newPath, status: "added", addedLines: draft.addedLines, binary });
      continue;
    }
    const status =
      draft.newFile || draft.oldPath === null
        ? "added"
        : draft.deletedFile || draft.newPath === null
          ? "deleted"
          : "modified";
    const path = status === "deleted" ? draft.oldPath : draft.newPath;
    if (path) add({ path, status, addedLines: draft.addedLines, binary });
  }
  return [...byPath.values()];
}

/** `Binary files a/x and b/x differ` (diff -r, or git without --binary). */
function binaryPaths(line: string): { oldPath: string | null; newPath: string | null } {
  const [, before = "", after = ""] = /^Binary files (.+) and (.+) differ$/.exec(line) ?? [];
  return { oldPath: headerPath(before, "a/"), newPath: headerPath(after, "b/") };
}

/** `a/x b/x` (the common case: both sides equal, spaces allowed), quoted paths, or a split at " b/". */
function gitHeaderPaths(rest: string): { oldPath: string | null; newPath: string | null } {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (rest.includes('"') && quoted)
    return { oldPath: headerPath(quoted[1]!, "a/"), newPath: headerPath(quoted[2]!, "b/") };
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " " && rest.slice(2, half) === rest.slice(half + 3)) {
    return { oldPath: headerPath(rest.slice(0, half), "a/"), newPath: headerPath(rest.slice(half + 1), "b/") };
  }
  const split = rest.lastIndexOf(" b/");
  if (split > 0)
    return { oldPath: headerPath(rest.slice(0, split), "a/"), newPath: headerPath(rest.slice(split + 1), "b/") };
  const space = rest.indexOf(" ");
  return space < 0
    ? { oldPath: null, newPath: null }
    : { oldPath: headerPath(rest.slice(0, space), "a/"), newPath: headerPath(rest.slice(space + 1), "b/") };
}

/** A `---`/`+++` path: drops `diff -u`'s tab + timestamp, unquotes, maps /dev/null to null, strips the prefix. */
function headerPath(raw: string, prefix: "a/" | "b/"): string | null {
  const tab = raw.indexOf("\t");
  let path = (tab < 0 ? raw : raw.slice(0, tab)).trimEnd();
  if (path.startsWith('"')) path = unquote(path);
  if (path === "/dev/null") return null;
  if (path.startsWith(prefix)) path = path.slice(prefix.length);
  return plainPath(path);
}

function plainPath(raw: string): string {
  const path = raw.startsWith('"') ? unquote(raw) : raw;
  return path.replace(/^(\.\/)+/, "");
}

/** git's C-style quoting: `\"`, `\\`, `\t`, `\n` and octal bytes (UTF-8). */
function unquote(quoted: string): string {
  const body = quoted.slice(1, quoted.endsWith('"') ? -1 : undefined);
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8, f: 12, v: 11 };
  for (let index = 0; index < body.length; index++) {
    const char = body[index]!;
    if (char !== "\\") {
      bytes.push(...new TextEncoder().encode(char));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      index += 3;
    } else {
      const next = body[++index] ?? "\\";
      bytes.push(escapes[next] ?? next.charCodeAt(0));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
