// Test harness: a pool of real dockerd engines on this machine, each in its own network namespace joined to the root
// namespace by a veth pair on a private /30, some served over TLS with certificates made here; stop() removes all of it.
// Needs root, iproute2 (`ip`), nsenter (util-linux), openssl and dockerd; canStartEnginePool() says which is missing.
// Images: an engine starts empty and no registry is reachable; carry images in (docker save → load) or import a tar.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import {
  createEngineLink,
  type EngineLink,
  engineCgroupProcs,
  killEngineContainers,
  killProcessesMentioning,
  pickPoolNetwork,
  removeEngineCgroup,
  removeEngineLink,
  unmountBelow,
} from "./engine-pool-host.ts";
import { type EngineCertificates, writeEngineCertificates } from "./engine-pool-tls.ts";

export interface TestEngine {
  name: string;
  /** `tcp://<address>:2375`, or `:2376` over TLS. */
  host: string;
  /** The engine's veth address inside its namespace. */
  address: string;
  /** The root namespace's end of the veth: how the engine's namespace reaches this machine. */
  hostAddress: string;
  /** The network namespace's name (`ip netns`), e.g. for `nsenter --net=/var/run/netns/<namespace>`. */
  namespace: string;
  /** The veth pair's interface names: `host` in the root namespace, `engine` inside the engine's namespace. */
  veth: { host: string; engine: string };
  tls: { caCert: string; clientCert: string; clientKey: string; certPath: string } | null;
  /** dockerd's process id. */
  pid(): number;
}

export interface TestEnginePool {
  engines: TestEngine[];
  /** The folder holding every engine's data, exec root, certificates and log. */
  root: string;
  /** SIGKILLs that engine's dockerd only: its containerd, shims and containers live on until stop(). */
  kill9(name: string): Promise<void>;
  /** Removes every process, mount, cgroup, namespace, veth and folder the pool made. Safe to call again. */
  stop(): Promise<void>;
}

export interface EnginePoolOptions {
  /** Engine names: lower-case letters, digits and dashes. */
  names: string[];
  /** The names served over TLS with client certificates; the others answer plain TCP. */
  tls?: string[];
  /** The dockerd to run, e.g. another version's; by default the one on PATH. */
  dockerd?: string;
}

interface EngineState {
  engine: TestEngine;
  link: EngineLink;
  root: string;
  cgroup: string;
  tls: boolean;
  dockerd: string;
  daemon?: ReturnType<typeof Bun.spawn>;
  pid?: number;
}

const READY_TIMEOUT_MS = 120_000;

/** Whether this machine can run a pool, and if not, why. */
export function canStartEnginePool(): { ok: true } | { ok: false; reason: string } {
  if (process.getuid?.() !== 0) return { ok: false, reason: "an engine pool needs root (network namespaces, dockerd)" };
  const missing = ["ip", "nsenter", "setsid", "dockerd", "openssl", "findmnt"].filter((tool) => !Bun.which(tool));
  if (missing.length > 0) return { ok: false, reason: `an engine pool needs ${missing.join(", ")} on PATH` };
  return { ok: true };
}

function checkOptions({ names, tls = [] }: EnginePoolOptions): void {
  if (names.length === 0 || names.length > 200) throw new Error("an engine pool needs between 1 and 200 names");
  const invalid = names.find((name) => !/^[a-z0-9][a-z0-9-]{0,30}$/.test(name));
  if (invalid !== undefined)
    throw new Error(`engine name "${invalid}": use lower-case letters, digits and dashes (at most 31)`);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new Error(`engine name "${repeated}" is given twice: names must be unique`);
  const unknown = tls.find((name) => !names.includes(name));
  if (unknown !== undefined) throw new Error(`tls names "${unknown}", which is not among the engine names`);
}

/** A dockerode client for the engine: plain HTTP, or HTTPS with its client certificate. */
export function dockerFor(engine: TestEngine, options: { timeoutMs?: number } = {}): Docker {
  const { hostname, port } = new URL(engine.host.replace("tcp://", "http://"));
  const timeout = options.timeoutMs;
  if (engine.tls === null) return new Docker({ host: hostname, port: Number(port), protocol: "http", timeout });
  const { caCert: ca, clientCert: cert, clientKey: key } = engine.tls;
  return new Docker({ host: hostname, port: Number(port), protocol: "https", ca, cert, key, timeout });
}

/** The containers created on `engine` from `since` until now, read from its event log; `role` is openeval's `openeval.sandbox` label. */
export async function containersCreatedOn(
  engine: TestEngine,
  since: Date,
): Promise<{ id: string; name: string; role: string | null }[]> {
  const stream = await dockerFor(engine).getEvents({
    since: Math.floor(since.getTime() / 1_000),
    until: Math.ceil(Date.now() / 1_000),
    filters: { type: ["container"], event: ["create"] },
  });
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { Actor: { ID: string; Attributes: Record<string, string | undefined> } })
    .map(({ Actor }) => ({
      id: Actor.ID,
      name: Actor.Attributes.name ?? "",
      role: Actor.Attributes["openeval.sandbox"] ?? null,
    }));
}

/** The names and addresses of engine number `index` (from 1) of pool `pool`; nothing is made yet. */
function planEngine(
  pool: string,
  root: string,
  octet: number,
  index: number,
  name: string,
  options: EnginePoolOptions,
): EngineState {
  const tls = options.tls?.includes(name) ?? false;
  const namespace = `oe-pool-${pool}-${index}`;
  const link: EngineLink = {
    namespace,
    hostVeth: `oep${pool}h${index}`,
    engineVeth: `oep${pool}e${index}`,
    hostAddress: `10.${octet}.${index}.1`,
    address: `10.${octet}.${index}.2`,
  };
  const state: EngineState = {
    link,
    root: join(root, name),
    cgroup: namespace,
    tls,
    dockerd: options.dockerd ?? "dockerd",
    engine: {
      name,
      host: `tcp://${link.address}:${tls ? 2376 : 2375}`,
      address: link.address,
      hostAddress: link.hostAddress,
      namespace,
      veth: { host: link.hostVeth, engine: link.engineVeth },
      tls: null,
      pid: () => state.pid ?? Number.NaN,
    },
  };
  return state;
}

/** dockerd flags for an engine that keeps all its state below `root` and leaves the machine's network alone. */
export function privateDockerdArguments(root: string): string[] {
  return [
    "--data-root",
    join(root, "data"),
    "--exec-root",
    join(root, "exec"),
    "--pidfile",
    join(root, "dockerd.pid"),
    "--iptables=false",
    "--ip-forward=false",
    "--bridge=none",
  ];
}

function dockerdArguments(state: EngineState, certificates: EngineCertificates | null): string[] {
  const { root, engine } = state;
  const transport =
    certificates === null
      ? ["--tls=false"] // Without it dockerd waits ~15 s to warn about plain TCP.
      : ["--tlsverify", "--tlscacert", certificates.server.ca, "--tlscert", certificates.server.cert];
  return [
    state.dockerd,
    ...transport,
    ...(certificates === null ? [] : ["--tlskey", certificates.server.key]),
    "--host",
    engine.host,
    "--config-file",
    join(root, "daemon.json"),
    "--cgroup-parent",
    `/${state.cgroup}`,
    ...privateDockerdArguments(root),
  ];
}

function isRunning(daemon: EngineState["daemon"]): daemon is NonNullable<EngineState["daemon"]> {
  return daemon !== undefined && daemon.exitCode === null && daemon.signalCode === null;
}

function answers(docker: Docker): Promise<boolean> {
  return docker.ping().then(
    () => true,
    () => false,
  );
}

async function waitUntilReady(state: EngineState): Promise<void> {
  const docker = dockerFor(state.engine, { timeoutMs: 2_000 });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && isRunning(state.daemon)) {
    if (await answers(docker)) return;
    await Bun.sleep(250);
  }
  const log = await readFile(join(state.root, "dockerd.log"), "utf8").catch(() => "");
  throw new Error(`engine ${state.engine.name} did not answer on ${state.engine.host}:\n${log.slice(-2_000)}`);
}

async function startEngine(state: EngineState): Promise<void> {
  await mkdir(join(state.root, "data"), { recursive: true });
  // Not the machine's /etc/docker/daemon.json, nor its /etc/docker/key.json: each engine has its own `docker info` ID.
  const config = { "deprecated-key-path": join(state.root, "key.json") };
  await writeFile(join(state.root, "daemon.json"), `${JSON.stringify(config)}\n`);
  createEngineLink(state.link);
  const certificates = state.tls ? await writeEngineCertificates(state.root, state.link.address) : null;
  if (certificates !== null) state.engine.tls = certificates;
  // nsenter, not `ip netns exec`: that remounts /sys and dockerd then finds no devices cgroup. setsid keeps dockerd
  // out of the test runner's process group. The shell joins the engine's cgroup, then execs, so the pid stays dockerd's.
  state.daemon = Bun.spawn(
    [
      "sh",
      "-c",
      'echo $$ > "$1" && log="$2" && shift 2 && exec "$@" > "$log" 2>&1',
      "sh",
      engineCgroupProcs(state.cgroup),
      join(state.root, "dockerd.log"),
      "nsenter",
      `--net=/var/run/netns/${state.link.namespace}`,
      "setsid",
      ...dockerdArguments(state, certificates),
    ],
    { stdin: "ignore", stdout: "ignore", stderr: "ignore" },
  );
  await waitUntilReady(state);
  state.pid = Number(readFileSync(join(state.root, "dockerd.pid"), "utf8"));
}

async function stopEngine(state: EngineState): Promise<void> {
  await killEngineContainers(state.cgroup);
  const daemon = state.daemon;
  if (isRunning(daemon)) {
    daemon.kill("SIGTERM");
    await Promise.race([daemon.exited, Bun.sleep(15_000)]);
    if (isRunning(daemon)) daemon.kill("SIGKILL");
    await daemon.exited;
  }
  await removeEngineCgroup(state.cgroup);
  await killProcessesMentioning(state.root);
  unmountBelow(state.root);
  await removeEngineLink(state.link);
}

/**
 * Starts one dockerd per name, each in its own network namespace.
 * @example
 * const pool = await startEnginePool({ names: ["a", "b", "c"], tls: ["b"] });
 * try { await dockerFor(pool.engines[1]).ping(); } finally { await pool.stop(); }
 */
export async function startEnginePool(options: EnginePoolOptions): Promise<TestEnginePool> {
  checkOptions(options);
  const id = randomBytes(3).toString("hex");
  const root = await mkdtemp(join(tmpdir(), `oe-pool-${id}-`));
  const states: EngineState[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const results = await Promise.allSettled(states.map(stopEngine));
      await rm(root, { recursive: true, force: true });
      const failure = results.find((result) => result.status === "rejected");
      if (failure !== undefined) throw failure.reason;
    })();
    return stopping;
  };
  try {
    const octet = pickPoolNetwork();
    for (const [index, name] of options.names.entries())
      states.push(planEngine(id, root, octet, index + 1, name, options));
    const failure = (await Promise.allSettled(states.map(startEngine))).find((result) => result.status === "rejected");
    if (failure !== undefined) throw failure.reason;
  } catch (error) {
    await stop().catch((teardown: unknown) => {
      throw new AggregateError([error, teardown], "an engine pool failed to start, and removing it failed too");
    });
    throw error;
  }
  const kill9 = async (name: string) => {
    const state = states.find((candidate) => candidate.engine.name === name);
    if (state?.daemon === undefined)
      throw new Error(`no engine "${name}" in this pool: its engines are ${options.names.join(", ")}`);
    state.daemon.kill("SIGKILL");
    await state.daemon.exited;
  };
  return { engines: states.map((state) => state.engine), root, kill9, stop };
}

/** How openeval reaches a test engine: TLS with its certificate folder, or plain TCP on its veth, declared insecure. */
export function engineOptionsOf(engine: TestEngine): { host: string; tls?: { certPath: string }; insecure?: true } {
  return engine.tls
    ? { host: engine.host, tls: { certPath: engine.tls.certPath } }
    : { host: engine.host, insecure: true };
}

/** benchmark.ts's `candidate.container.engines` for these engines, each taking `capacity` sandboxes at once. */
export function enginesSetting(engines: readonly TestEngine[], capacity: number) {
  return engines.map((engine) => ({ name: engine.name, capacity, ...engineOptionsOf(engine) }));
}
