// Where a path an agent wrote lands: in its workspace (as a workspace path), in a folder of its own (its HOME, its
// temp folder), or outside both. Nothing is read from disk: the recording's paths are the agent's, not this machine's.
import { posix } from "node:path";

export type AgentPath =
  | { where: "workspace"; path: string }
  | { where: "own" }
  | { where: "outside"; path: string }
  /** A variable other than HOME/TMPDIR/PWD, or an absolute path of a recording that does not say where the agent worked. */
  | { where: "unknown" };

export interface AgentFolders {
  workspace: string;
  own: readonly string[];
}

/** Devices and the process's own view that every command may touch: reading them tells nothing. */
const HARMLESS = [/^\/dev\/(null|zero|u?random|tty|stdin|stdout|stderr)$/, /^\/dev\/fd(\/|$)/, /^\/proc\/self(\/|$)/];

/**
 * @example agentPath("../secret", { workspace: "/w", own: ["/h"] }) // { where: "outside", path: "/secret" }
 * @example agentPath("src/a.ts", { workspace: "/w", own: [] }) // { where: "workspace", path: "src/a.ts" }
 */
export function agentPath(written: string, folders: AgentFolders | null): AgentPath {
  const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(\/.*)?$/.exec(written);
  if (variable) {
    const [, name, rest = ""] = variable;
    if (name === "HOME" || name === "TMPDIR") return { where: "own" };
    if (name === "PWD" && folders) return agentPath(`${folders.workspace}${rest}`, folders);
    return { where: "unknown" };
  }
  if (written === "~" || written.startsWith("~/")) return { where: "own" };
  if (written.startsWith("~")) return { where: "unknown" };
  if (!written.startsWith("/")) {
    const relative = posix.normalize(written);
    if (relative === ".." || relative.startsWith("../")) {
      return folders ? agentPath(posix.join(folders.workspace, written), folders) : { where: "unknown" };
    }
    return { where: "workspace", path: relative.replace(/^\.\//, "").replace(/\/$/, "") || "." };
  }
  const absolute = posix.normalize(written).replace(/(.)\/$/, "$1");
  if (HARMLESS.some((pattern) => pattern.test(absolute))) return { where: "own" };
  if (!folders) return { where: "unknown" };
  if (within(absolute, folders.workspace)) {
    return { where: "workspace", path: posix.relative(folders.workspace, absolute) || "." };
  }
  if (folders.own.some((folder) => within(absolute, folder))) return { where: "own" };
  return { where: "outside", path: absolute };
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}
