// Line diffs rendered as unified-diff hunks, for workspace diffs and scorers. The search is fast-myers-diff's (Myers'
// O(ND) in linear space, over lines mapped to integers): keeping a frontier copy per edit step would make memory grow
// with the square of the edit distance, and jsdiff runs the same algorithm far slower on large files
// (bench/README.md, section 6).
import { diff } from "fast-myers-diff";
import { displayPath } from "./relative-path.ts";

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

/**
 * Past this many line comparisons the minimal diff is not worth its time: the file is shown as replaced whole
 * (every old line removed, every new one added), which is still a correct patch. A fraction of a second of work.
 */
export const MAX_COMPARISONS = 20_000_000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Added and deleted files need no search.
  if (a.length === 0 || b.length === 0) return [...a.map(removed), ...b.map(added)];
  const matches = matchedLines(a, b);
  if (matches === null) return [...a.map(removed), ...b.map(added)];
  const lines: DiffLine[] = [];
  let x = 0;
  let y = 0;
  for (const [matchX, matchY] of [...matches, [a.length, b.length] as const]) {
    for (; x < matchX; x++) lines.push(removed(a[x]!));
    for (; y < matchY; y++) lines.push(added(b[y]!));
    if (matchX < a.length) lines.push({ kind: "same", text: a[matchX]! });
    x = matchX + 1;
    y = matchY + 1;
  }
  return lines;
}

/**
 * The pairs (line of a, line of b) a minimal diff keeps, in order; null past MAX_COMPARISONS. Lines are compared
 * as integers, and a line that occurs in only one side is an edit whatever the alignment (xdiff's discard step), so
 * it is left out of the search: a file with scattered edits leaves the search little or nothing to do.
 */
function matchedLines(a: string[], b: string[]): [number, number][] | null {
  const ids = new Map<string, number>();
  const idOf = (line: string) => ids.get(line) ?? ids.set(line, ids.size).size - 1;
  const idsA = a.map(idOf);
  const idsB = b.map(idOf);
  const inA = new Set(idsA);
  const inB = new Set(idsB);
  const keptA = idsA.flatMap((id, index) => (inB.has(id) ? [index] : []));
  const keptB = idsB.flatMap((id, index) => (inA.has(id) ? [index] : []));
  const left = Int32Array.from(keptA, (index) => idsA[index]!);
  const right = Int32Array.from(keptB, (index) => idsB[index]!);
  let comparisons = 0;
  const tooLong = new Error("edit too long");
  const matches: [number, number][] = [];
  try {
    let x = 0;
    let y = 0;
    const ranges = diff(left, right, (i, j) => {
      if (++comparisons > MAX_COMPARISONS) throw tooLong;
      return left[i] === right[j];
    });
    for (const [fromX, toX, , toY] of [...ranges, [left.length, left.length, right.length, right.length]]) {
      for (; x < fromX!; x++, y++) matches.push([keptA[x]!, keptB[y]!]);
      x = toX!;
      y = toY!;
    }
  } catch (error) {
    if (error === tooLong) return null;
    throw error;
  }
  return matches;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

const added = (text: string): DiffLine => ({ kind: "added", text });
const removed = (text: string): DiffLine => ({ kind: "removed", text });

/** A unified diff (`--- a/path`, `+++ b/path`, `@@` hunks with `context` lines around each change). */
export function unifiedDiff(path: string, before: string | null, after: string | null, context = 3): string {
  const lines = diffLines(before ?? "", after ?? "");
  const hunks = formatHunks(lines, context);
  if (hunks.length === 0) return "";
  const from = before === null ? "/dev/null" : displayPath(`a/${path}`);
  const to = after === null ? "/dev/null" : displayPath(`b/${path}`);
  return [`--- ${from}`, `+++ ${to}`, ...hunks].join("\n") + "\n";
}

function formatHunks(lines: DiffLine[], context: number): string[] {
  const output: string[] = [];
  const changed = lines.map((line, index) => (line.kind === "same" ? -1 : index)).filter((index) => index >= 0);
  // Old and new line numbers before lines[index], advanced as hunks are emitted (one pass over the lines).
  let counted = 0;
  let oldLine = 0;
  let newLine = 0;
  const advanceTo = (index: number) => {
    for (; counted < index; counted++) {
      if (lines[counted]!.kind !== "added") oldLine++;
      if (lines[counted]!.kind !== "removed") newLine++;
    }
  };
  let cursor = 0;
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - context);
    let end = Math.min(lines.length, changed[cursor]! + context + 1);
    while (cursor + 1 < changed.length && changed[cursor + 1]! - context <= end) {
      cursor++;
      end = Math.min(lines.length, changed[cursor]! + context + 1);
    }
    cursor++;
    advanceTo(start);
    const oldStart = oldLine;
    const newStart = newLine;
    const hunk = lines.slice(start, end);
    const oldCount = hunk.filter((line) => line.kind !== "added").length;
    const newCount = hunk.filter((line) => line.kind !== "removed").length;
    output.push(
      `@@ -${oldCount === 0 ? oldStart : oldStart + 1},${oldCount} +${newCount === 0 ? newStart : newStart + 1},${newCount} @@`,
    );
    for (const line of hunk)
      output.push(`${line.kind === "same" ? " " : line.kind === "added" ? "+" : "-"}${line.text}`);
  }
  return output;
}
