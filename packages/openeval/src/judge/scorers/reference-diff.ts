// The reference fix: a Markdown file (REFERENCE_FIX.md) holding a unified diff, read into FilePatches.
// The diff is taken from its ```diff / ```patch fenced blocks; a file without such blocks is read whole (a raw
// `git diff` saved as .md works, and prose between diffs is skipped).
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ScorerError } from "./errors.ts";
import { DiffSyntaxError, parseUnifiedDiff, type FilePatch } from "./unified-diff.ts";

export interface ReferenceDiff {
  /** Where the reference came from (an absolute path, or "referenceText"), for messages. */
  source: string;
  files: FilePatch[];
}

/** Reads and parses a reference file; `path` is resolved against the current directory (a judge's is its eval folder). */
export async function readReferenceDiff(path: string): Promise<ReferenceDiff> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "it does not exist"
        : `it cannot be read (${(error as Error).message})`;
    throw new ScorerError("referenceUnreadable", { path: absolute, reason }, { cause: error });
  }
  return parseReferenceDiff(text, absolute);
}

/** Parses reference text; throws a ScorerError naming `source` when it holds no diff or a malformed one. */
export function parseReferenceDiff(text: string, source: string): ReferenceDiff {
  const files: FilePatch[] = [];
  for (const block of diffBlocks(text)) {
    try {
      files.push(...parseUnifiedDiff(block.text));
    } catch (error) {
      if (!(error instanceof DiffSyntaxError)) throw error;
      const line = block.firstLine + error.line - 1;
      const detail = error.message
        .replace(/^line \d+: /, "")
        .replace(/\(line (\d+)\)/, (_, at: string) => `(line ${block.firstLine + Number(at) - 1})`);
      throw new ScorerError("referenceMalformed", { source, line, detail }, { cause: error });
    }
  }
  if (files.length === 0) {
    throw new ScorerError("referenceWithoutDiff", { source });
  }
  return { source, files: mergeByPath(files) };
}

/** The ```diff/```patch/```udiff fenced blocks (CommonMark fences: ``` or ~~~, closed by a fence as long), or the whole text. */
export function diffBlocks(text: string): Array<{ text: string; firstLine: number }> {
  const lines = text.split(/\r?\n/);
  const blocks: Array<{ text: string; firstLine: number }> = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[index]!);
    if (!open) continue;
    const fence = open[1]!;
    const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    if (/^(diff|patch|udiff)$/i.test(open[2]!))
      blocks.push({ text: lines.slice(index + 1, end).join("\n"), firstLine: index + 2 });
    index = end;
  }
  return blocks.length > 0 ? blocks : [{ text, firstLine: 1 }];
}

function mergeByPath(files: FilePatch[]): FilePatch[] {
  const byPath = new Map<string, FilePatch>();
  for (const file of files) {
    const existing = byPath.get(file.path);
    byPath.set(
      file.path,
      existing
        ? {
            ...existing,
            addedLines: [...existing.addedLines, ...file.addedLines],
            binary: existing.binary || file.binary,
          }
        : file,
    );
  }
  return [...byPath.values()];
}
