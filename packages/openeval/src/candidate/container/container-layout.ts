// Where things are in a candidate's container: the standard candidate image's layout (images/candidate/), or an
// environment image's (images/environment/), whose harness files sit under top-level folders that are their own
// volumes, so an agent running as root on a writable root can neither change nor move them.
import type { SandboxUser, TarEntry } from "../../sandbox/index.ts";

export interface ContainerLayout {
  /** The candidate's whole scratch folder inside the container (HOME, config, database; the workspace too unless
   * `workspace` says otherwise). */
  root: string;
  egressDir: string;
  /** The egress proxy and forwarder program, as argv. */
  egressProgram: string[];
  bun: string;
  /** The launcher that starts OpenCode as the `candidate` user, and OpenCode as it passes it on. */
  asOpenCode: string;
  opencode: string;
  /** The launcher that runs a command as the agent's user (eval.ts prepare steps). */
  asTool: string;
  /** OpenCode's shell: bash as the agent's user. */
  toolShell: string;
  /** Folders outside the workspace that the agent's commands and OpenCode's file tools share. */
  sharedFolders: string[];
  /** The tool user's HOME and TMPDIR, as tar entries below `root` (none: the environment's user has its own HOME). */
  toolHomeEntries: TarEntry[];
  /** Kept only by the launchers, which start as root. */
  capabilities: string[];
  /** Writable folders besides `root` (volumes filled from the image). */
  folders: string[];
  readOnlyRoot: boolean;
  /** The environment's working directory, where the workspace lives instead of under `root`. */
  workspace: string | null;
  /** Where the oracle control finds the task's solution/ (an environment's layout only). */
  solution: string | null;
}

/** The standard image's `tool` user: every command of the agent, and eval.ts prepare steps, run as it. */
export const TOOL_USER: SandboxUser = { uid: 10003, gid: 10003 };
const STANDARD_ROOT = "/home/candidate";
const STANDARD_TOOL_HOME = `${STANDARD_ROOT}/tool-home`;
/** Kept by the standard launchers: to switch to the tool user, end its commands, edit its files. */
const LAUNCHER_CAPABILITIES = ["SETUID", "SETGID", "KILL", "DAC_OVERRIDE"];

export const STANDARD_LAYOUT: ContainerLayout = {
  root: STANDARD_ROOT,
  egressDir: "/run/openeval-egress",
  // `--no-install` here and below: Bun never fetches packages for the harness's own scripts, in a container either.
  egressProgram: ["bun", "--no-install", "/opt/openeval/openeval-egress.ts"],
  bun: "bun",
  asOpenCode: "/opt/openeval/as-opencode",
  opencode: "opencode",
  asTool: "/opt/openeval/as-tool",
  toolShell: "/opt/openeval/tool-shell/bash",
  sharedFolders: [STANDARD_TOOL_HOME, "/tmp"],
  toolHomeEntries: ["", "/tmp"].map((path) => ({
    type: "directory",
    path: `tool-home${path}`,
    mode: 0o700,
    ...TOOL_USER,
  })),
  capabilities: LAUNCHER_CAPABILITIES,
  folders: [],
  readOnlyRoot: true,
  workspace: null,
  solution: null,
};

/** Where the oracle's container receives the task's solution/ (solve.sh reads its files there). */
export const ORACLE_SOLUTION_FOLDER = "/solution";

/**
 * An environment image's layout: its launchers' `/oe` mounted as their own volume (the binaries in `/oe-bin` stay in
 * the image: a volume filled with them would cost a copy of 280 MB per eval run). As root, the agent's commands run
 * on a writable root with no capabilities and an empty bounding set (OpenCode's launcher keeps SETPCAP to empty it);
 * as the environment's own user, the root stays read-only and the working directory is a volume filled from the image.
 */
export function environmentLayout(
  environment: { workdir: string; asRoot: boolean },
  options: { solution: boolean },
): ContainerLayout {
  // Only the oracle's container gets one: others have no /solution at all.
  const solution = options.solution ? ORACLE_SOLUTION_FOLDER : null;
  return {
    root: "/oe-home",
    egressDir: "/oe-egress",
    egressProgram: ["/oe-bin/bun", "--no-install", "/oe/openeval-egress.ts"],
    bun: "/oe-bin/bun",
    asOpenCode: "/oe/as-opencode",
    opencode: "/oe-bin/opencode",
    asTool: "/oe/as-tool",
    toolShell: "/oe/tool-shell/bash",
    sharedFolders: ["/tmp", ...(environment.asRoot ? ["/root"] : [])],
    toolHomeEntries: [],
    capabilities: [...LAUNCHER_CAPABILITIES, "SETPCAP"],
    folders: ["/oe", ...(solution ? [solution] : []), ...(environment.asRoot ? [] : [environment.workdir])],
    readOnlyRoot: !environment.asRoot,
    workspace: environment.workdir,
    solution,
  };
}
