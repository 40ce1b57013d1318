// Line diffs (Myers' O(ND) algorithm) rendered as unified-diff hunks, for workspace diffs and scorers.

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };

export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const trace = shortestEditTrace(a, b);
  return backtrack(trace, a, b);
}

/** A unified diff (`--- a/path`, `+++ b/path`, `@@` hunks with `context` lines around each change). */
export function unifiedDiff(path: string, before: string | null, after: string | null, context = 3): string {
  const lines = diffLines(before ?? "", after ?? "");
  const hunks = formatHunks(lines, context);
  if (hunks.length === 0) return "";
  const from = before === null ? "/dev/null" : `a/${path}`;
  const to = after === null ? "/dev/null" : `b/${path}`;
  return [`--- ${from}`, `+++ ${to}`, ...hunks].join("\n") + "\n";
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function shortestEditTrace(a: string[], b: string[]): Map<number, number>[] {
  const max = a.length + b.length;
  const frontier = new Map<number, number>([[1, 0]]);
  const trace: Map<number, number>[] = [];
  for (let depth = 0; depth <= max; depth++) {
    trace.push(new Map(frontier));
    for (let diagonal = -depth; diagonal <= depth; diagonal += 2) {
      const down = diagonal === -depth || (diagonal !== depth && (frontier.get(diagonal - 1) ?? -1) < (frontier.get(diagonal + 1) ?? -1));
      let x = down ? (frontier.get(diagonal + 1) ?? 0) : (frontier.get(diagonal - 1) ?? 0) + 1;
      let y = x - diagonal;
      while (x < a.length && y < b.length && a[x] === b[y]) {
        x++;
        y++;
      }
      frontier.set(diagonal, x);
      if (x >= a.length && y >= b.length) return trace;
    }
  }
  return trace;
}

function backtrack(trace: Map<number, number>[], a: string[], b: string[]): DiffLine[] {
  const lines: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let depth = trace.length - 1; depth >= 0; depth--) {
    const frontier = trace[depth]!;
    const diagonal = x - y;
    const down = diagonal === -depth || (diagonal !== depth && (frontier.get(diagonal - 1) ?? -1) < (frontier.get(diagonal + 1) ?? -1));
    const previousDiagonal = down ? diagonal + 1 : diagonal - 1;
    const previousX = frontier.get(previousDiagonal) ?? 0;
    const previousY = previousX - previousDiagonal;
    while (x > previousX && y > previousY) lines.push({ kind: "same", text: a[--x]! }), y--;
    if (depth > 0) {
      if (x === previousX) lines.push({ kind: "added", text: b[--y]! });
      else lines.push({ kind: "removed", text: a[--x]! });
    }
  }
  return lines.reverse();
}

function formatHunks(lines: DiffLine[], context: number): string[] {
  const output: string[] = [];
  const changed = lines.map((line, index) => (line.kind === "same" ? -1 : index)).filter((index) => index >= 0);
  let cursor = 0;
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - context);
    let end = Math.min(lines.length, changed[cursor]! + context + 1);
    while (cursor + 1 < changed.length && changed[cursor + 1]! - context <= end) {
      cursor++;
      end = Math.min(lines.length, changed[cursor]! + context + 1);
    }
    cursor++;
    const before = lines.slice(0, start);
    const oldStart = before.filter((line) => line.kind !== "added").length;
    const newStart = before.filter((line) => line.kind !== "removed").length;
    const hunk = lines.slice(start, end);
    const oldCount = hunk.filter((line) => line.kind !== "added").length;
    const newCount = hunk.filter((line) => line.kind !== "removed").length;
    output.push(`@@ -${oldCount === 0 ? oldStart : oldStart + 1},${oldCount} +${newCount === 0 ? newStart : newStart + 1},${newCount} @@`);
    for (const line of hunk) output.push(`${line.kind === "same" ? " " : line.kind === "added" ? "+" : "-"}${line.text}`);
  }
  return output;
}
