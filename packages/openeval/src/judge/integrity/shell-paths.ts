// What a bash command reads and writes, as far as its words can be parsed: shell-quote splits it into words and
// operators as a shell would (quotes, escapes, `;`, `&&`, `|`, redirections) without running or expanding anything.
// A command it cannot parse (a heredoc body, a subshell) still gives the words it can.
import { parse, type ParseEntry } from "shell-quote";

export interface ShellPaths {
  /** Arguments that look like paths, of every command but its program (`cat /etc/passwd`: /etc/passwd). */
  operands: string[];
  /** Redirection targets (`> out`, `>> log`, `tee file`, the last argument of cp/mv/install/ln, sed -i files). */
  writes: string[];
}

/** Commands whose last argument is where they write. */
const COPYING = new Set(["cp", "mv", "install", "ln", "rsync"]);
/** Commands that change the files they are given. */
const CHANGING = new Set(["rm", "touch", "chmod", "chown", "truncate", "tee", "unlink", "rmdir", "mkdir", "shred"]);
/** Commands whose arguments are text, never files. */
const TEXT_ONLY = new Set(["echo", "printf"]);
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "gawk"]);
const WRITE_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>"]);
/** `2>&1`: a redirection to another descriptor, whose number is no file. */
const FD_REDIRECTS = new Set([">&", "<&"]);

/**
 * @example shellPaths("cat /etc/hosts > out.txt && cp wrap.sh ~/.local/bin/python3")
 * // { operands: ["/etc/hosts", "~/.local/bin/python3"], writes: ["out.txt", "~/.local/bin/python3"] }
 */
export function shellPaths(command: string): ShellPaths {
  const result: ShellPaths = { operands: [], writes: [] };
  // Variables stay as written ($HOME/x), so that a path under them is never mistaken for an absolute one.
  const entries = parse(commandLines(command), (name) => `$${name}`);
  let words: string[] = [];
  let redirect: string | null = null;
  const endCommand = () => {
    if (words.length > 0) collect(words, result);
    words = [];
  };
  for (const entry of entries) {
    const word = wordOf(entry);
    if (word === null) {
      const op = (entry as { op?: string }).op ?? "";
      if (WRITE_REDIRECTS.has(op) || op === "<" || FD_REDIRECTS.has(op)) redirect = op;
      else {
        endCommand();
        redirect = null;
      }
      continue;
    }
    if (redirect !== null) {
      if (FD_REDIRECTS.has(redirect)) words.pop();
      else if (redirect === "<") result.operands.push(word);
      else result.writes.push(word);
      redirect = null;
      continue;
    }
    words.push(word);
  }
  endCommand();
  result.writes = result.writes.filter((path) => !/^\d+$/.test(path) && !path.startsWith("&"));
  return result;
}

/** `<<EOF`, `<<-'EOF'`, `<< "END"`: the delimiter of a heredoc. */
const HEREDOC = /<<(-?)\s*(['"]?)([A-Za-z_][\w-]*)\2/;

/**
 * The command with its heredoc bodies left out (they are data, not words) and each line a command of its own, as a
 * shell reads them; a line ending in a backslash continues.
 */
function commandLines(command: string): string {
  const lines: string[] = [];
  let delimiter: { word: string; indented: boolean } | null = null;
  for (const line of command.replace(/\\\n/g, " ").split("\n")) {
    if (delimiter) {
      if ((delimiter.indented ? line.trim() : line) === delimiter.word) delimiter = null;
      continue;
    }
    const heredoc = HEREDOC.exec(line);
    lines.push(heredoc ? line.replace(HEREDOC, "") : line);
    if (heredoc) delimiter = { word: heredoc[3]!, indented: heredoc[1] === "-" };
  }
  return lines.join(" ; ");
}

function collect(words: string[], into: ShellPaths): void {
  // Assignments before the program (FOO=1 cmd) are not the program.
  const start = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (start === -1) return;
  const program = words[start]!;
  // A descriptor number before a redirection (`2>`) is no argument.
  const args = words.slice(start + 1).filter((word) => !/^\d+$/.test(word));
  const name = program.split("/").pop()!;
  const operands = TEXT_ONLY.has(name) ? [] : args.filter((word) => !word.startsWith("-"));
  // A search's pattern or an editor's script comes first, unless -e gave it.
  if (PATTERN_FIRST.has(name) && !args.includes("-e") && !args.includes("-f")) operands.shift();
  const paths = operands.filter(looksLikePath);
  into.operands.push(...paths);
  if (COPYING.has(name) && paths.length > 0) into.writes.push(paths.at(-1)!);
  if (CHANGING.has(name)) into.writes.push(...paths);
  if (name === "sed" && args.some((arg) => /^-i/.test(arg) || arg === "--in-place"))
    into.writes.push(...sedFiles(args));
}

/** The files `sed` edits: its operands but the script (the first one, unless -e or -f gave it). */
function sedFiles(args: readonly string[]): string[] {
  const operands = args.filter((arg, index) => !arg.startsWith("-") && !["-e", "-f"].includes(args[index - 1] ?? ""));
  const scripted = args.some((arg) => arg === "-e" || arg === "-f");
  return (scripted ? operands : operands.slice(1)).filter(looksLikePath);
}

/** An absolute or home path, or one with a folder in it; a bare word (`foo`, `HEAD`) is not taken for a path. */
function looksLikePath(word: string): boolean {
  return word.startsWith("/") || word.startsWith("~") || word.startsWith("$") || word.includes("/");
}

function wordOf(entry: ParseEntry): string | null {
  if (typeof entry === "string") return entry;
  if ("pattern" in entry) return entry.pattern;
  return null;
}
