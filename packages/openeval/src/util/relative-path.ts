// Workspace-relative paths as the evidence format stores them: forward slashes, no `..`, never absolute.
// Every path that comes from outside (a judge, a manifest, a snapshot) goes through here first. Only `/` separates
// names: a backslash is an ordinary character in a Linux file name (`x\..\..\y` is one file in the workspace).
import { posix } from "node:path";

export class UnsafePathError extends Error {
  readonly code = "OE_UNSAFE_PATH";
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Refused path "${path}": ${reason}. Use a path relative to the workspace root, without "..".`);
  }
}

/** Returns the normalized relative path, or throws UnsafePathError. */
export function toSafeRelativePath(path: string): string {
  if (path.length === 0) throw new UnsafePathError(path, "it is empty");
  if (path.includes("\0")) throw new UnsafePathError(path, "it contains a NUL byte");
  if (posix.isAbsolute(path)) throw new UnsafePathError(path, "it is absolute");
  const normalized = posix.normalize(path);
  if (normalized === ".." || normalized.startsWith("../") || normalized.split("/").includes("..")) {
    throw new UnsafePathError(path, "it leaves the workspace");
  }
  if (normalized === ".") throw new UnsafePathError(path, "it names the workspace root, not a file");
  return normalized.replace(/^\.\//, "");
}

const ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  '"': '\\"',
  "\\": "\\\\",
};

/**
 * A path as text to show (diff headers, messages), quoted the way git quotes one when it holds a control
 * character, a quote or a backslash, so a name can never forge a line. Display only: the stored path stays as it is.
 * @example displayPath("a\nb"); // the line `"a\nb"`: in quotes, the newline written as backslash and n
 */
export function displayPath(path: string): string {
  if (!/[\x00-\x1f\x7f"\\]/.test(path)) return path;
  const escaped = path.replace(
    /[\x00-\x1f\x7f"\\]/g,
    (char) => ESCAPES[char] ?? `\\${char.charCodeAt(0).toString(8).padStart(3, "0")}`,
  );
  return `"${escaped}"`;
}
