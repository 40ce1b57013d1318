// What a prompt states its answer to be, read the way a candidate that skips the work would: the file paths it
// names and the literal text it gives, from its `backticked` and "double-quoted" spans. The prompt-output attack
// (audit-attacks.ts) writes exactly these; docs/guide/audit.md describes the heuristic.

export interface PromptClaims {
  /** Paths the prompt names, in order, each once: relative (to the workspace) or absolute. */
  paths: string[];
  /** The other spans, in order, each once: the text the prompt says an answer holds (`ERROR`, "Hello, world!"). */
  literals: string[];
}

const SPAN = /`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”/g;
/** A file name: a dotfile (`.env`), or a name with a letter-led extension (`count.txt`, not `1.5` or `v2.0`). */
const FILE_NAME = /^(?:\.[\w-]+|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})$/;
/** Well-known files without an extension. */
const BARE_FILES = new Set(["Makefile", "Dockerfile", "README", "LICENSE", "Gemfile", "Procfile"]);
/** Folder-like words (`/app`, `src/`): named, but not files to write or text to state. */
const FOLDER = /^(?:\/|\.{0,2}\/)?(?:[\w.-]+\/)*[\w.-]*\/?$/;

/**
 * @example readPromptClaims("Count the lines with `ERROR` in `server.log` and write it to `count.txt` in `/app`.")
 * // { paths: ["server.log", "count.txt"], literals: ["ERROR"] }
 */
export function readPromptClaims(prompt: string): PromptClaims {
  const paths: string[] = [];
  const literals: string[] = [];
  for (const match of prompt.matchAll(SPAN)) {
    const span = (match[1] ?? match[2] ?? match[3] ?? "").trim();
    if (span === "") continue;
    if (isFilePath(span)) {
      const path = span.replace(/^\.\//, "");
      if (!paths.includes(path)) paths.push(path);
    } else if (!(span.includes("/") && FOLDER.test(span)) && !literals.includes(span)) literals.push(span);
  }
  return { paths, literals };
}

/** A workspace-relative or absolute file path: no spaces, no `..`, no URL, and a file name at its end. */
export function isFilePath(span: string): boolean {
  if (!/^[\w./~-]+$/.test(span) || span.includes("://") || span.endsWith("/")) return false;
  const segments = span.split("/");
  if (segments.includes("..") || span.startsWith("~")) return false;
  const name = segments.at(-1)!;
  return FILE_NAME.test(name) || BARE_FILES.has(name);
}
