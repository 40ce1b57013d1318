// The shell commands the audit's attacks run in a candidate's workspace: which files they act on (listed when the
// workspace is known, found with find(1) when only the running candidate sees it) and the stand-in contents they
// write. Bash only: OpenCode's own write and edit tools refuse to replace a file the session has not read.
import { posix } from "node:path";
import { shellWord } from "../util/shell-word.ts";

/** Files a step acts on: named, or whatever matches these find(1) tests at run time. */
export type FileSource = { files: readonly string[] } | { find: readonly string[] };

/** Contents by file extension (without the dot; `*` for any other), one array entry a line. */
export type ContentTable = Record<string, readonly string[]>;

/** What no attack touches: git's own folder and installed packages. */
const NOT_WORKSPACE_FILES = ["-not", "-path", "'./.git/*'", "-not", "-path", "'*/node_modules/*'"];

/** One line of shell that writes `lines` (each ending in a newline) to `target`, a shell word already. */
export function writeLines(lines: readonly string[], target: string): string {
  return lines.length === 0 ? `: > ${target}` : `printf '%s\\n' ${lines.map(shellWord).join(" ")} > ${target}`;
}

/** Deletes the files, saying which. */
export function deleteFiles(source: FileSource): string {
  if ("files" in source) return `rm -f -- ${source.files.map(shellWord).join(" ")}`;
  return `${findFiles(source.find)} -print -exec rm -f -- {} +`;
}

/** Replaces each file's content by its extension's entry in `table`, keeping its mode. */
export function rewriteFiles(source: FileSource, table: ContentTable): string {
  if ("files" in source)
    return source.files.map((path) => writeLines(contentFor(path, table), shellWord(path))).join("; ");
  const cases = Object.entries(table)
    .filter(([extension]) => extension !== "*")
    .map(([extension, lines]) => `*.${extension}) ${writeLines(lines, '"$f"')} ;;`);
  const fallback = `*) ${writeLines(table["*"] ?? [], '"$f"')} ;;`;
  return `${findFiles(source.find)} -print0 | while IFS= read -r -d '' f; do echo "$f"; case "$f" in ${[...cases, fallback].join(" ")} esac; done`;
}

/** Writes `lines` to `path` unless something is there already, creating its folder. */
export function createFile(path: string, lines: readonly string[]): string {
  const folder = posix.dirname(path);
  const write = writeLines(lines, shellWord(path));
  return `[ -e ${shellWord(path)} ] || { ${folder === "." ? "" : `mkdir -p ${shellWord(folder)} && `}${write}; }`;
}

export function contentFor(path: string, table: ContentTable): readonly string[] {
  const extension = /\.([^./]+)$/.exec(path)?.[1] ?? "";
  return table[extension] ?? table["*"] ?? [];
}

/** find(1) tests for a workspace glob, approximately: `**` crosses folders, as find's `*` does. */
export function globToFind(glob: string): string[] {
  return ["-path", shellWord(`./${glob.replaceAll("**/", "*").replaceAll("**", "*")}`)];
}

/** Alternatives of find(1) tests as one group: `( a -o b … )`. */
export function anyOf(tests: readonly (readonly string[])[]): string[] {
  return ["\\(", ...tests.flatMap((test, index) => (index === 0 ? [...test] : ["-o", ...test])), "\\)"];
}

function findFiles(tests: readonly string[]): string {
  return ["find", ".", "-type", "f", ...NOT_WORKSPACE_FILES, ...tests].join(" ");
}
