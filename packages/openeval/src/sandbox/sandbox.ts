// The engine-neutral sandbox: a place where argv runs under limits, with files copied in and out, output streamed
// with bounds, the whole tree killable at once, and leftovers found again by their labels. Every engine of the map
// (engines.ts) implements this interface and passes one contract suite (sandbox-contract.case.ts); each user
// (verification, candidate isolation) brings its own policy as a SandboxSpec.
import type { TarEntry } from "./tar.ts";

export interface SandboxUser {
  uid: number;
  gid: number;
}

export interface SandboxLimits {
  cpus: number;
  memoryMiB: number;
  pids: number;
  /** Size of the writable /tmp. */
  tmpMiB: number;
}

export interface SandboxSpec {
  /** The image id to run (pinned, never a tag). */
  image?: string;
  /** Identify the sandbox for reaping (e.g. `openeval.run`, `openeval.eval-run`); the engine adds its owner. */
  labels: Record<string, string>;
  /** Writable folders (absolute sandbox paths) that copyIn/copyOut reach; they live exactly as long as the sandbox. */
  folders: string[];
  /** Like `folders`, but empty even where the image has files at that path (a workspace restored from a snapshot). */
  emptyFolders?: string[];
  /** Working folder of every run unless a run names its own. */
  workdir: string;
  /** Environment of every run (nothing comes from the host's own environment). */
  env?: Record<string, string>;
  /** Enforced by the engine (`confines` says which). */
  limits: SandboxLimits;
  /** Read-only root filesystem (container engine); the folders and /tmp stay writable. */
  readOnlyRoot?: boolean;
  /** Upper bound on the sandbox's life: a sandbox left by a crashed harness stops by itself after this. */
  lifetimeMs: number;
  /** Engine-specific network policy; the default is no network at all. */
  network?: SandboxNetwork;
  /** Engine-managed named volumes (ContainerEngine.createVolume) shared with other sandboxes; never host folders. */
  volumes?: { name: string; path: string }[];
  /**
   * Container engine: capabilities (`SETUID`, `KILL`, …) a command started as root (RunOptions.user) has; every
   * other one is dropped. Commands run as the sandbox's user get none. The container's idle init process runs as root.
   */
  capabilities?: string[];
}

/** `none`: only loopback. `host`: the engine host's network (the egress proxy, never a candidate). */
export type SandboxNetwork = { kind: "none" } | { kind: "host" };

/** Receives output as it arrives (already capped by the sandbox). */
export interface OutputSink {
  write(chunk: Uint8Array): void;
}

export interface RunOptions {
  /** Sandbox path; default the spec's workdir. */
  cwd?: string;
  env?: Record<string, string>;
  /**
   * Written to the command's stdin, which is then closed. A stream is written as it yields, while the command runs,
   * and stdin closes when it ends; a command that exits first cancels it. Without it stdin is empty.
   */
  stdin?: Uint8Array | ReadableStream<Uint8Array>;
  /** Epoch ms; past it the whole sandbox is killed and the run is `timedOut`. */
  deadline: number;
  stdout?: OutputSink;
  stderr?: OutputSink;
  /** Per stream: bytes past this are counted, never delivered. Default: unbounded. */
  maxOutputBytes?: number;
  /** Run as this user (root to switch users inside) instead of the sandbox's. */
  user?: SandboxUser;
}

export interface RunOutcome {
  /** null when killed (deadline, kill()) before it exited. */
  exitCode: number | null;
  timedOut: boolean;
  elapsedMs: number;
  stdoutBytes: number;
  stderrBytes: number;
  /** Some output went past maxOutputBytes and was dropped. */
  truncated: boolean;
}

/** What a copy-out brought back: the kind of the copied path itself, and what could not be copied. */
export interface CopiedTree {
  type: "file" | "directory" | "symlink";
  /** The symlink's target when `type` is symlink. */
  target: string;
  /** Entries left out, each with why (a device or FIFO, a hard link to something not copied). */
  skipped: string[];
  /** Files inside the copied folder past the size cap: hashed as they went by, not written. */
  omitted: OmittedFile[];
}

export interface OmittedFile {
  /** Below the copied path, `/`-separated. */
  path: string;
  bytes: number;
  sha256: string;
  mode: number;
}

export type CopyOutResult =
  | { kind: "missing" }
  /** The files' sizes passed maxBytes (`bytes` when the size was known before copying); nothing is left at the target. */
  | { kind: "over-limit"; bytes: number | null; directory: boolean }
  | ({ kind: "copied" } & CopiedTree);

export interface Sandbox {
  readonly id: string;
  /** The user commands run as; give it to the files a command must be able to write. */
  readonly user: SandboxUser;
  /** Where a sandbox path appears to the commands. */
  path(sandboxPath: string): string;
  /** Unpacks entries under a sandbox folder (or below one); owners and modes as the entries say where allowed. */
  copyIn(folder: string, entries: TarEntry[]): Promise<void>;
  /**
   * Copies the file or folder at a sandbox path to `target` on this machine (which must not exist yet), streamed to
   * disk: hard links, symlinks (not followed), holes of sparse files and every name Linux allows are kept.
   * `maxBytes` caps the sum of the file sizes.
   */
  copyOut(path: string, target: string, options: { maxBytes: number }): Promise<CopyOutResult>;
  run(argv: string[], options: RunOptions): Promise<RunOutcome>;
  /** Kills every process of the sandbox, however detached; the folders stay readable until remove(). */
  kill(): Promise<void>;
  /** Kills and removes the sandbox and its folders. Idempotent. */
  remove(): Promise<void>;
}

export interface ReapOptions {
  /** Remove only sandboxes whose owning process on this host is gone (a crashed runner), not live ones. */
  orphansOnly?: boolean;
}

export interface SandboxEngine {
  readonly name: SandboxEngineName;
  /** Where the engine is (a socket, a remote host, "this machine"), for messages. */
  readonly address: string;
  /** What this engine enforces (an engine on this machine could not limit memory, CPU or the network). */
  readonly confines: { resources: boolean; network: boolean; filesystem: boolean };
  create(spec: SandboxSpec): Promise<Sandbox>;
  /** Ids of the sandboxes that carry every given label (running or not). */
  list(labels: Record<string, string>): Promise<string[]>;
  /** Kills and removes the sandboxes that carry every given label; returns their ids. */
  reap(labels: Record<string, string>, options?: ReapOptions): Promise<string[]>;
}

export type SandboxEngineName = "container";

/** Label every sandbox carries: `<host>/<pid>` of the process that created it (reaping tells orphans by it). */
export const OWNER_LABEL = "openeval.owner";
