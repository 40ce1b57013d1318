// Running one candidate's OpenCode in a container (docs/design/container-isolation.md): no host mounts —
// the scratch folder (isolated HOME/config, auth entry, workspace) goes in as a tar to the candidate's volume at
// /home/candidate, the session runs as the image's non-root user on a read-only root with no network but loopback,
// its only way out a forwarder to the egress proxy (a second container on the host network, sharing one
// engine-managed volume for the unix socket), and after it stops everything comes back to the host scratch folder,
// so the existing recording path reads it at the same host paths. OpenCode and the agent's commands run as two
// users: the agent cannot read or write OpenCode's database, config or logs, nor trace its process.
import { rm } from "node:fs/promises";
import { join, posix, relative } from "node:path";
import type { Launcher } from "../../opencode/index.ts";
import {
  cappedSink,
  openSandboxEngine,
  readFolder,
  type ContainerEngine,
  type EngineOptions,
  type OutputSink,
  type ReadTarEntry,
  type Sandbox,
  type SandboxLimits,
  type SandboxUser,
  type TarEntry,
} from "../../sandbox/index.ts";
import type { NotCopiedFile } from "../../recording/index.ts";
import { timePhase } from "../../util/phase-timing.ts";
import type { EgressPlan } from "./egress.ts";
import { openEgressRelay, type EgressRelay } from "./egress-relay.ts";
import type { PreparationFailure, StepRunner } from "../prepare-workspace.ts";
import { TOOL_USER, type ContainerLayout } from "./container-layout.ts";

/** The sum of file sizes a copy-out may bring back (streamed to disk, sparse files kept sparse): far above any
 * workspace plus database a candidate should leave. */
const COPY_OUT_LIMIT = 4 * 1024 ** 3;
const PROXY_LIMITS: SandboxLimits = { cpus: 0.5, memoryMiB: 256, pids: 128, tmpMiB: 16 };
export const DEFAULT_CANDIDATE_LIMITS = { memoryMiB: 4096, pidsLimit: 1024 } as const;
/** The most CPUs a candidate gets by default, on any host. */
const MAX_DEFAULT_CANDIDATE_CPUS = 2;

/**
 * The candidate's CPUs when `candidate.container.cpus` is not set: as many as the engine host has, at most 2, so a
 * candidate gets what it would get in process isolation on a small host (one CPU fewer doubled the agent's start on
 * two cores; bench/README.md, section 8) and no more than 2 on a large one; one CPU when the engine does not say.
 * @example defaultCandidateCpus(2) // 2
 */
export function defaultCandidateCpus(engineCpus: number | null): number {
  if (engineCpus === null) return 1;
  return Math.min(MAX_DEFAULT_CANDIDATE_CPUS, engineCpus);
}
const ROOT: SandboxUser = { uid: 0, gid: 0 };
/** OpenCode runs git in the tool user's repository; git refuses another user's repository without this. */
const GIT_SAFE_DIRECTORY = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "safe.directory", GIT_CONFIG_VALUE_0: "*" };

export interface CandidateContainerOptions {
  /** The eval run's id: names this container's phase timings. */
  evalRunId: string;
  image: string;
  /** Where things are in the image: the standard candidate image's layout, or an environment image's. */
  layout: ContainerLayout;
  /** The engine to run on (the pool's engine this eval run was placed on). */
  engine: EngineOptions;
  /** The host scratch folder that holds the run's workspace and OpenCode dirs; mapped to the layout's root. */
  scratch: string;
  /** The host workspace inside `scratch`; with an environment, mapped to its working directory instead. */
  workspace: string;
  /** The eval's solution/ on the host, laid at the layout's `solution` folder for the oracle control; else null. */
  solution: string | null;
  limits: { cpus?: number; memoryMiB?: number; pidsLimit?: number };
  labels: Record<string, string>;
  egress: EgressPlan;
  timeoutMs: number;
  /** The longest eval.ts prepare may take before the session (its steps' timeouts); 0 without steps. */
  preparationMs: number;
  /** The egress proxy's log (each refused connection is a line). */
  egressLog: OutputSink;
}

export interface LiveCopy {
  workspace: string;
  database: string;
}

export interface CandidateContainer {
  /**
   * Lays the candidate's starting workspace at `workspace` on the host: with an environment, its working directory's
   * files as the image holds them (copied out of the started container); otherwise `lay` makes it on the host.
   */
  layWorkspace(lay: () => Promise<void>): Promise<void>;
  launch: Launcher;
  /** Folders outside the workspace that OpenCode's file tools may use (runOpenCode's `sharedFolders`). */
  sharedFolders: string[];
  /** Where a host folder of the scratch (the workspace, OpenCode's HOME) is inside the container. */
  seenAs(path: string): string;
  /**
   * eval.ts prepare: once the candidate's container has started (the session later runs in the same one), runs
   * `body`'s steps there on a copy of the host `workspace`, and once they all succeeded brings the prepared
   * workspace back to the host, where the initial snapshot is taken.
   */
  prepare(
    workspace: string,
    body: (runStep: StepRunner) => Promise<PreparationFailure | null>,
  ): Promise<PreparationFailure | null>;
  /**
   * earlyStop: the running candidate's workspace and a consistent copy of its live database (made inside
   * the container, as the process backend makes it on the host), brought to `target` on the host. `paths` are the
   * host scratch paths the session was given.
   */
  copyLive(paths: LiveCopy, target: string): Promise<LiveCopy>;
  /**
   * Files under a host scratch folder (the workspace) that the final copy-back left in the container, past its
   * copy-out limit: hashed on the way, for the final snapshot to record by size and sha256.
   */
  notCopied(folder: string): NotCopiedFile[];
  /** Removes both containers and the shared volume. Idempotent; also after a failure. */
  close(): Promise<void>;
}

/**
 * Connects to the engine and starts the containers at once, in the background, while the caller lays out and
 * snapshots the workspace: prepare and launch wait for them, close removes them (after a start still in flight).
 */
export async function openCandidateContainer(options: CandidateContainerOptions): Promise<CandidateContainer> {
  const engine = await timed(options, "connect", () => openSandboxEngine("container", { container: options.engine }));
  const made: Made = { sandboxes: [], volume: null, candidate: null, deadline: 0, notCopied: [] };
  const paths = containerPaths(options);
  const started = start(engine, options, made);
  // Its failure reaches prepare or launch; a caller that ends before either still closes, which waits for it.
  started.catch(() => {});
  const close = () =>
    timed(options, "remove", async () => {
      await started.catch(() => {});
      // Each removal is a kill and a wait on the engine: every container left at once, then the volume they shared.
      await Promise.all(made.sandboxes.splice(0).map((sandbox) => sandbox.remove().catch(() => {})));
      if (made.volume) await engine.removeVolume(made.volume).catch(() => {});
      made.volume = null;
    });
  const copyLiveOf = (live: LiveCopy, target: string) => {
    if (!made.candidate) throw new Error("The candidate's container is not running: nothing to copy");
    return copyLive(made.candidate, options.layout, paths, live, target, made.deadline);
  };
  const closingOnError = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      await close();
      throw error;
    }
  };
  return {
    layWorkspace: async (lay) => {
      const workdir = options.layout.workspace;
      if (workdir === null) return lay();
      const { candidate } = await closingOnError(started);
      await closingOnError(
        timed(options, "lay-workspace", () =>
          copyWhole(candidate, workdir, options.workspace, "The environment's working directory"),
        ),
      );
      if (options.solution && options.layout.solution)
        await closingOnError(laySolution(candidate, options.solution, options.layout.solution));
    },
    launch: (command) =>
      closingOnError(started.then((containers) => launch(containers, options, paths, made, command))),
    sharedFolders: options.layout.sharedFolders,
    seenAs: paths.inside,
    prepare: (workspace, body) =>
      closingOnError(started.then(({ candidate }) => prepareIn(candidate, options, paths, workspace, body))),
    copyLive: copyLiveOf,
    notCopied: (folder) => {
      const prefix = `${paths.inside(folder)}/`;
      return made.notCopied
        .filter((file) => file.path.startsWith(prefix))
        .map((file) => ({ ...file, path: file.path.slice(prefix.length) }));
    },
    close,
  };
}

/** One step of the container's life, timed as a phase of its eval run (`npm run bench` shows them). */
function timed<T>(options: CandidateContainerOptions, name: string, work: () => Promise<T>): Promise<T> {
  return timePhase(options.evalRunId, `container.${name}`, work);
}

interface Made {
  sandboxes: Sandbox[];
  volume: string | null;
  /** Set once the candidate container exists (for live copies). */
  candidate: Sandbox | null;
  deadline: number;
  /** What the final copy-back hashed but did not bring (absolute paths in the container). */
  notCopied: NotCopiedFile[];
}

interface Started {
  candidate: Sandbox;
  proxy: Sandbox;
  /** The egress proxy's program listening: launch waits for it before OpenCode starts (prepare's steps have no egress). */
  proxyListening: Promise<void>;
}

/**
 * The egress proxy and the candidate container, side by side: neither needs the other before OpenCode's first
 * request. Both creations settle before a failure is thrown, so close never races a container still being made.
 */
async function start(engine: ContainerEngine, options: CandidateContainerOptions, made: Made): Promise<Started> {
  const lifetimeMs = options.preparationMs + options.timeoutMs + 60_000;
  const deadline = Date.now() + lifetimeMs;
  const [volume, cpus] = await settleAll([
    timed(
      options,
      "volume",
      async () => (made.volume = await engine.createVolume({ ...options.labels, "openeval.sandbox": "egress" })),
    ),
    options.limits.cpus ?? timed(options, "engine-cpus", async () => defaultCandidateCpus(await engine.cpus())),
  ] as const);
  const { layout } = options;
  const volumes = [{ name: volume, path: layout.egressDir }];

  // Step: the egress proxy, on the engine host's network, listening on the shared volume's unix socket.
  const proxy = timed(options, "proxy-create", async () => {
    const created = await engine.create({
      image: options.image,
      labels: { ...options.labels, "openeval.sandbox": "egress-proxy" },
      folders: [],
      workdir: layout.egressDir,
      limits: PROXY_LIMITS,
      readOnlyRoot: true,
      lifetimeMs,
      network: { kind: "host" },
      volumes,
    });
    made.sandboxes.push(created);
    return created;
  });
  const proxyListening = proxy.then((created) =>
    timed(options, "proxy-listen", async () =>
      startAndWait(
        created,
        [...layout.egressProgram, "proxy", egressSocket(layout), options.egress.allow.join(",")],
        deadline,
        options.egressLog,
        await openEgressRelay(options.egress.allow, options.egressLog),
      ),
    ),
  );
  // Awaited by launch; ended by close (which removes the proxy) when the start or prepare fails first.
  proxyListening.catch(() => {});

  // Step: the candidate container: no network, read-only root (unless the environment runs as root), limits.
  const startCandidate = async () => {
    const limits = { ...DEFAULT_CANDIDATE_LIMITS, ...options.limits, cpus };
    const candidate = await timed(options, "candidate-create", () =>
      engine.create({
        image: options.image,
        labels: { ...options.labels, "openeval.sandbox": "candidate" },
        folders: [layout.root, ...layout.folders],
        workdir: layout.root,
        limits: { cpus: limits.cpus, memoryMiB: limits.memoryMiB, pids: limits.pidsLimit, tmpMiB: 512 },
        readOnlyRoot: layout.readOnlyRoot,
        lifetimeMs,
        network: { kind: "none" },
        volumes,
        capabilities: layout.capabilities,
      }),
    );
    made.sandboxes.push(candidate);
    return candidate;
  };
  const [proxySandbox, candidate] = await settleAll([proxy, startCandidate()] as const);
  made.candidate = candidate;
  return { candidate, proxy: proxySandbox, proxyListening };
}

/** Like Promise.all, but a failure is thrown only once every step has settled (nothing is left being made). */
async function settleAll<T extends readonly unknown[]>(
  steps: { readonly [K in keyof T]: T[K] | Promise<T[K]> },
): Promise<T> {
  const results = await Promise.allSettled(steps);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

async function prepareIn(
  candidate: Sandbox,
  options: CandidateContainerOptions,
  paths: ContainerPaths,
  workspace: string,
  body: (runStep: StepRunner) => Promise<PreparationFailure | null>,
): Promise<PreparationFailure | null> {
  const { layout } = options;
  const inside = paths.inside(workspace);
  const folder = await readFolder(workspace, COPY_OUT_LIMIT);
  if (folder.kind !== "copied")
    throw new Error(`The candidate's workspace ${workspace} is over ${COPY_OUT_LIMIT} bytes`);
  await candidate.copyIn(layout.root, layout.toolHomeEntries);
  await candidate.copyIn(
    posix.dirname(inside),
    relativeEntries(folder.entries, 0).map((entry) => ({ ...entry, ...TOOL_USER })),
  );
  const failure = await body(async ({ argv, cwd, env }, { timeoutMs, output, signal }) => {
    // The runner stopping kills the container's processes; the eval run then ends interrupted.
    const onAbort = () => void candidate.kill();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const outcome = await candidate.run([layout.asTool, ...argv], {
        user: ROOT,
        cwd: paths.inside(cwd),
        env: paths.insideEnv(env),
        deadline: Date.now() + timeoutMs,
        stdout: output,
        stderr: output,
      });
      return { exitCode: outcome.exitCode, timedOut: outcome.timedOut };
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  });
  // A failed step ends the eval run (a timed-out one took the container with it): nothing to bring back.
  if (failure) return failure;
  await rm(workspace, { recursive: true, force: true });
  await copyWhole(candidate, inside, workspace, "The prepared workspace");
  return null;
}

async function launch(
  { candidate, proxy, proxyListening }: Started,
  options: CandidateContainerOptions,
  paths: ContainerPaths,
  made: Made,
  command: Parameters<Launcher>[0],
) {
  const deadline = Date.now() + options.timeoutMs + 60_000;
  made.deadline = deadline;
  const { layout } = options;

  // Step, all at once: copy the scratch folder in (as one tar: the workspace owned by the tool user, the rest private
  // to OpenCode's, and the tool user's HOME) and start the forwarders, which need none of it; the proxy ends its start.
  const copyIn = timed(options, "copy-in", async () => {
    const scratch = await readFolder(options.scratch, COPY_OUT_LIMIT);
    if (scratch.kind !== "copied")
      throw new Error(`The candidate's scratch folder ${options.scratch} is over ${COPY_OUT_LIMIT} bytes`);
    const workspace = relative(options.scratch, command.cwd);
    // With an environment, the workspace is already in the container, at its working directory.
    const entries = relativeEntries(scratch.entries, 1).filter(
      (entry) => layout.workspace === null || !within(entry.path, workspace),
    );
    await candidate.copyIn(layout.root, [
      ...layout.toolHomeEntries,
      ...entries.map((entry) => ownedEntry(entry, workspace, candidate.user)),
    ]);
  });
  const forwarders = timed(options, "forwarders", () =>
    settleAll(
      options.egress.forwards.map((forward) =>
        startAndWait(
          candidate,
          [
            ...layout.egressProgram,
            "forward",
            String(forward.port),
            egressSocket(layout),
            ...(forward.target ? [forward.target] : []),
          ],
          deadline,
          options.egressLog,
        ),
      ),
    ),
  );
  await settleAll([copyIn, forwarders, proxyListening] as const);

  // Step: OpenCode itself, at the container's paths; its output streams out as it comes.
  const map = paths.inside;
  const stdout = streamSink();
  const stderr = streamSink();
  const env = {
    ...paths.insideEnv(command.env),
    ...options.egress.env,
    ...GIT_SAFE_DIRECTORY,
    SHELL: layout.toolShell,
  };
  const run = candidate.run([layout.asOpenCode, layout.opencode, ...command.argv.slice(1).map(map)], {
    user: ROOT,
    cwd: map(command.cwd),
    env,
    stdin: new TextEncoder().encode(command.stdin),
    deadline,
    stdout: stdout.sink,
    stderr: stderr.sink,
  });
  const exited = run.then((outcome) => {
    stdout.close();
    stderr.close();
    return outcome.exitCode;
  });
  // Step (after exit): the session's files come back to the host scratch folder, where the recording path reads them,
  // while the egress proxy, of no more use, is removed.
  const collect = () =>
    settleAll([
      timed(options, "copy-out", () => copyBack(candidate, options, made)),
      timed(options, "proxy-remove", () => removeProxy(made, proxy)),
    ]).then(() => {});
  return { stdout: stdout.stream, stderr: stderr.stream, exited, collect, kill: () => candidate.kill() };
}

/** Removes the egress proxy before close; when the engine fails to, close tries again. */
async function removeProxy(made: Made, proxy: Sandbox): Promise<void> {
  const removed = await proxy.remove().then(
    () => true,
    () => false,
  );
  if (removed) made.sandboxes = made.sandboxes.filter((sandbox) => sandbox !== proxy);
}

interface ContainerPaths {
  /** A host scratch path as the container sees it (other values unchanged). */
  inside(value: string): string;
  /** An environment for the host's scratch paths, as the container sees them, also inside values (OpenCode's config). */
  insideEnv(env: Record<string, string>): Record<string, string>;
}

/** The host scratch folder is the layout's root, except the workspace when an environment has its own. */
function containerPaths({ scratch, workspace, layout }: CandidateContainerOptions): ContainerPaths {
  const moves: [string, string][] = [
    ...(layout.workspace === null ? [] : [[workspace, layout.workspace] as [string, string]]),
    [scratch, layout.root],
  ];
  return {
    inside: (value) => {
      const move = moves.find(([host]) => within(value, host));
      return move ? move[1] + value.slice(move[0].length) : value;
    },
    insideEnv: (env) =>
      Object.fromEntries(
        Object.entries(env).map(([key, value]) => [
          key,
          moves.reduce((moved, [host, inside]) => moved.replaceAll(host, inside), value),
        ]),
      ),
  };
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

function egressSocket(layout: ContainerLayout): string {
  return `${layout.egressDir}/egress.sock`;
}

/**
 * Who owns a scratch entry in the container: the workspace belongs to the tool user (its commands write it; OpenCode
 * reaches it through its capability); everything else is OpenCode's, its top folders closed to anyone else.
 */
function ownedEntry(entry: TarEntry, workspace: string, opencode: SandboxUser): TarEntry {
  if (entry.path === workspace || entry.path.startsWith(`${workspace}/`)) return { ...entry, ...TOOL_USER };
  const top = entry.type === "directory" && !entry.path.includes("/");
  return { ...entry, ...opencode, ...(top ? { mode: 0o700 } : {}) };
}

/** The live database is copied with VACUUM INTO inside the container, never read while OpenCode writes its WAL. */
async function copyLive(
  candidate: Sandbox,
  layout: ContainerLayout,
  paths: ContainerPaths,
  live: LiveCopy,
  target: string,
  deadline: number,
): Promise<LiveCopy> {
  const folder = `${layout.root}/.openeval-live-copy`;
  const copy = `${folder}/opencode.db`;
  const script = [
    'const { mkdirSync, rmSync } = require("node:fs");',
    `rmSync(${JSON.stringify(folder)}, { recursive: true, force: true }); mkdirSync(${JSON.stringify(folder)});`,
    `const db = new (require("bun:sqlite").Database)(${JSON.stringify(paths.inside(live.database))}, { readonly: true });`,
    `db.run("PRAGMA busy_timeout = 5000"); db.query("VACUUM INTO ?").run(${JSON.stringify(copy)}); db.close();`,
  ].join("\n");
  let problem = "";
  const made = await candidate.run([layout.bun, "--no-install", "-e", script], {
    deadline,
    maxOutputBytes: 64 * 1024,
    stderr: { write: (chunk) => void (problem += new TextDecoder().decode(chunk)) },
  });
  if (made.exitCode !== 0)
    throw new Error(
      `The live database could not be copied inside the candidate's container: ${problem.trim() || `exit ${made.exitCode}`}`,
    );
  try {
    for (const [path, name] of [
      [paths.inside(live.workspace), "workspace"],
      [copy, "opencode.db"],
    ] as const)
      await copyWhole(candidate, path, join(target, name), path);
  } finally {
    await candidate.run(["rm", "-rf", folder], { deadline }).catch(() => {});
  }
  return { workspace: join(target, "workspace"), database: join(target, "opencode.db") };
}

/**
 * Starts a long-running helper and waits for its "listening" line (or its early exit). With a relay (the egress proxy),
 * its stdin and stdout are the relay's frames and its log lines come on stderr; the relay closes when it ends.
 */
async function startAndWait(
  sandbox: Sandbox,
  argv: string[],
  deadline: number,
  log: OutputSink,
  relay?: EgressRelay,
): Promise<void> {
  let seen = "";
  let ready!: () => void;
  const listening = new Promise<void>((resolve) => (ready = resolve));
  const sink = cappedSink(
    {
      write: (chunk: Uint8Array) => {
        log.write(chunk);
        seen += new TextDecoder().decode(chunk);
        if (seen.includes("listening")) ready();
      },
    },
    1 << 20,
  );
  const running = sandbox.run(argv, {
    deadline,
    stdout: relay?.output ?? sink,
    stderr: sink,
    ...(relay ? { stdin: relay.input } : {}),
  });
  const ended = running.finally(() => relay?.close());
  const first = await Promise.race([listening.then(() => null), ended, Bun.sleep(30_000).then(() => "slow" as const)]);
  if (first === "slow") throw new Error(`${argv.slice(2, 3).join(" ")} did not start listening within 30 s`);
  if (first !== null)
    throw new Error(`${argv.slice(2, 3).join(" ")} exited (${first.exitCode}) before listening: ${seen.trim()}`);
}

/**
 * Tar entries to write elsewhere (host or container): without the first `skip` path components (a copy of a folder names
 * them `<basename>/…`), file modes cut to permission bits. The agent may have made links that point anywhere; they
 * come back as links, never followed here.
 */
function relativeEntries(entries: ReadTarEntry[], skip: number): TarEntry[] {
  const result: TarEntry[] = [];
  for (const entry of entries) {
    const path = entry.path.split("/").slice(skip).join("/").replace(/\/$/, "");
    if (path === "") continue;
    if (entry.type === "directory") result.push({ type: "directory", path, mode: entry.mode });
    else if (entry.type === "symlink") result.push({ type: "symlink", path, target: entry.target });
    else if (entry.type === "file")
      result.push({ type: "file", path, data: entry.data, mode: (entry.mode ?? 0o644) & 0o777 });
  }
  return result;
}

/**
 * The session's files back to the host scratch folder (with an environment, its working directory back to the
 * host workspace); files past the limit stay behind, listed by size and hash.
 */
async function copyBack(candidate: Sandbox, options: CandidateContainerOptions, made: Made): Promise<void> {
  const { layout } = options;
  await rm(options.scratch, { recursive: true, force: true });
  const folders: [string, string][] = [
    [layout.root, options.scratch],
    ...(layout.workspace === null ? [] : [[layout.workspace, options.workspace] as [string, string]]),
  ];
  const note = `not copied: past the candidate container's ${COPY_OUT_LIMIT}-byte copy-out limit`;
  made.notCopied = [];
  for (const [inside, host] of folders) {
    const copied = await candidate.copyOut(inside, host, { maxBytes: COPY_OUT_LIMIT });
    if (copied.kind !== "copied")
      throw new Error(`The candidate's files could not be copied out of its container (${copied.kind})`);
    made.notCopied.push(...copied.omitted.map((file) => ({ ...file, path: `${inside}/${file.path}`, note })));
  }
}

/** The task's solution/ for the oracle control, readable (and its folders enterable) by whoever runs the agent's commands. */
async function laySolution(candidate: Sandbox, folder: string, inside: string): Promise<void> {
  const files = await readFolder(folder, COPY_OUT_LIMIT);
  if (files.kind !== "copied") throw new Error(`The task's solution ${folder} is over ${COPY_OUT_LIMIT} bytes`);
  const readable = (entry: TarEntry): TarEntry =>
    entry.type === "symlink"
      ? entry
      : { ...entry, mode: (entry.mode ?? 0o644) | (entry.type === "directory" ? 0o555 : 0o444), ...ROOT };
  await candidate.copyIn(inside, relativeEntries(files.entries, 1).map(readable));
}

/** A copy that must bring everything (a prepared workspace, a checkpoint): anything left behind is an error. */
async function copyWhole(candidate: Sandbox, path: string, target: string, what: string): Promise<void> {
  const copied = await candidate.copyOut(path, target, { maxBytes: COPY_OUT_LIMIT });
  if (copied.kind !== "copied")
    throw new Error(`${what} could not be copied out of the candidate's container (${copied.kind})`);
  if (copied.omitted.length > 0)
    throw new Error(`${what} is over the ${COPY_OUT_LIMIT}-byte copy-out limit of the candidate's container`);
}

function streamSink(): { stream: ReadableStream<Uint8Array>; sink: OutputSink; close(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  let closed = false;
  return {
    stream,
    sink: { write: (chunk) => !closed && controller.enqueue(chunk.slice()) },
    close: () => {
      if (closed) return;
      closed = true;
      controller.close();
    },
  };
}
