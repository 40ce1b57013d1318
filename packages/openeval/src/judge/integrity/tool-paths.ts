// What one OpenCode tool call read and wrote, from its input as recorded: the file tools name their paths, and a
// bash command's are parsed (shell-paths.ts). Paths are as the agent wrote them: relative to its workspace, absolute,
// or under its home (`~`, `$HOME`).
import type { ToolCall } from "../../recording/index.ts";
import { shellPaths } from "./shell-paths.ts";

export interface ToolPaths {
  /** Paths read or listed. */
  reads: string[];
  /** Paths created, changed or deleted. */
  writes: string[];
  /** Every string of the input, for what names a file without a path-shaped argument (answer keys). */
  strings: string[];
}

/** OpenCode's file tools and the input keys that hold their paths. */
const READING: Record<string, readonly string[]> = {
  read: ["filePath"],
  list: ["path"],
  glob: ["path", "pattern"],
  grep: ["path"],
};
const WRITING: Record<string, readonly string[]> = {
  write: ["filePath"],
  edit: ["filePath"],
  multiedit: ["filePath"],
};
/** apply_patch's file headers: `*** Add File: path`, `*** Update File: path`, `*** Delete File: path`, `*** Move to: path`. */
const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/**
 * @example toolPaths({ name: "read", input: { filePath: "/etc/hosts" }, … }) // { reads: ["/etc/hosts"], writes: [], strings: ["/etc/hosts"] }
 */
export function toolPaths(call: Pick<ToolCall, "name" | "input">): ToolPaths {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const field = (keys: readonly string[] | undefined) =>
    (keys ?? []).flatMap((key) => (typeof input[key] === "string" && input[key] !== "" ? [input[key] as string] : []));
  const reads = field(READING[call.name]).filter((path) => call.name !== "glob" || !path.includes("*"));
  const writes = field(WRITING[call.name]);
  if (call.name === "glob" && typeof input.pattern === "string" && input.pattern.startsWith("/"))
    reads.push(globBase(input.pattern));
  if (typeof input.patchText === "string")
    writes.push(...[...input.patchText.matchAll(PATCH_FILE)].map((match) => match[1]!.trim()));
  if (call.name === "bash" && typeof input.command === "string") {
    const shell = shellPaths(input.command);
    reads.push(...shell.operands.filter((path) => !shell.writes.includes(path)));
    writes.push(...shell.writes);
  }
  return { reads, writes, strings: stringsOf(input) };
}

/** The folder a glob pattern starts from: `/etc/*.conf` → `/etc`. */
function globBase(pattern: string): string {
  const parts = pattern.split("/");
  const wild = parts.findIndex((part) => /[*?[{]/.test(part));
  return wild === -1 ? pattern : parts.slice(0, wild).join("/") || "/";
}

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}
