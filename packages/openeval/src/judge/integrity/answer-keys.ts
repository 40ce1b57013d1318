// Whether a tool input names one of the eval's judge-only files: a whole path or its end, never part of a longer name,
// and never a file that is the candidate's own.
import { agentPath, type AgentFolders } from "./agent-path.ts";

/** One pattern for all of an eval's answer keys, longest first so that `tests/judge.ts` wins over `judge.ts`. */
export function answerKeyPattern(keys: readonly string[]): RegExp | null {
  if (keys.length === 0) return null;
  const escaped = [...keys]
    .sort((a, b) => b.length - a.length)
    .map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(escaped.join("|"), "g");
}

/**
 * The judge-only files (paths relative to the eval's folder) that `text` names: as a whole path or its end, not as
 * part of a longer name; unless that path is the candidate's own (a workspace file, its folders).
 */
export function answerKeysNamed(
  text: string,
  pattern: RegExp,
  folders: AgentFolders | null,
  inSnapshots: ReadonlySet<string>,
): string[] {
  const named: string[] = [];
  for (const match of text.matchAll(pattern)) {
    const from = match.index;
    const key = match[0];
    const before = text[from - 1];
    const after = text[from + key.length];
    if ((before !== undefined && !/[\s/'"=:(`]/.test(before)) || (after !== undefined && /[\w.\-/]/.test(after)))
      continue;
    const resolved = agentPath(tokenAround(text, from, from + key.length), folders);
    const own = resolved.where === "own" || (resolved.where === "workspace" && inSnapshots.has(resolved.path));
    if (!own) named.push(key);
  }
  return named;
}

/** The whitespace- or quote-delimited word around text[start, end). */
function tokenAround(text: string, start: number, end: number): string {
  let left = start;
  while (left > 0 && !/[\s'"=(`]/.test(text[left - 1]!)) left--;
  return text.slice(left, end);
}
