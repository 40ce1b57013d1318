// Workspace-relative paths as the evidence format stores them: forward slashes, no `..`, never absolute.
// Every path that comes from outside (a judge, a manifest, a snapshot) goes through here first.
import { isAbsolute, posix } from "node:path";

export class UnsafePathError extends Error {
  readonly code = "UNSAFE_PATH";
  constructor(readonly path: string, reason: string) {
    super(`Refused path "${path}": ${reason}. Use a path relative to the workspace root, without "..".`);
  }
}

/** Returns the normalized relative path, or throws UnsafePathError. */
export function toSafeRelativePath(path: string): string {
  if (path.length === 0) throw new UnsafePathError(path, "it is empty");
  if (path.includes("\0")) throw new UnsafePathError(path, "it contains a NUL byte");
  if (isAbsolute(path) || path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.startsWith("\\")) {
    throw new UnsafePathError(path, "it is absolute");
  }
  const normalized = posix.normalize(path.replaceAll("\\", "/"));
  if (normalized === ".." || normalized.startsWith("../") || normalized.split("/").includes("..")) {
    throw new UnsafePathError(path, "it leaves the workspace");
  }
  if (normalized === "." ) throw new UnsafePathError(path, "it names the workspace root, not a file");
  return normalized.replace(/^\.\//, "");
}
