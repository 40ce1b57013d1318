// Connecting to a container engine (Docker, or Podman's Docker-compatible API) through dockerode: which socket,
// and one clear error when nothing answers there.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type Docker from "dockerode";
import { isPlainRemoteTcp } from "../../util/engine-address.ts";
import { ContainerError } from "./errors.ts";

export interface EngineOptions {
  /** Which engine's default socket to use when neither socketPath nor DOCKER_HOST is given. Default "docker". */
  engine?: "docker" | "podman";
  /** A unix socket path; overrides DOCKER_HOST. */
  socketPath?: string;
  /** An engine address (`unix:///…`, `tcp://host:port`, `ssh://…`), as DOCKER_HOST would give it; overrides it. */
  host?: string;
  /** TLS with client certificates for a `tcp://` host: a folder of ca.pem, cert.pem and key.pem (DOCKER_CERT_PATH's layout). */
  tls?: { certPath: string };
  /** Plain TCP to another machine, declared knowingly (candidate.container.engines `insecure: true`). */
  insecure?: boolean;
  /** Defaults to process.env; DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH are read from it. */
  env?: Record<string, string | undefined>;
}

export interface Engine {
  docker: Docker;
  kind: "docker" | "podman";
  /** Where the engine was looked for, for messages. */
  address: string;
}

const DEFAULT_SOCKETS = { docker: "/var/run/docker.sock", podman: "/run/podman/podman.sock" } as const;

/** Where the engine is looked for, and the dockerode options that reach it (none: docker-modem reads DOCKER_HOST itself). */
interface EngineTarget {
  kind: Engine["kind"];
  address: string;
  client?: Docker.DockerOptions;
}

/** The dockerode options that reach the engine at engineAddress(options). Does not connect. */
function engineTarget(options: EngineOptions): EngineTarget {
  const kind = options.engine ?? "docker";
  const env = options.env ?? process.env;
  const address = engineAddress(options);
  if (address.startsWith("unix://")) return { kind, address, client: { socketPath: address.slice("unix://".length) } };
  const tcp = /^tcp:\/\/([^:/]+):(\d+)\/?$/.exec(address);
  // docker-modem parses the rest of DOCKER_HOST itself (ssh://).
  if (!tcp) return { kind, address };
  // Docker's own convention for the environment's engine; a pool member names its folder itself.
  const certPath =
    options.tls?.certPath ?? (options.host === undefined && env.DOCKER_TLS_VERIFY ? dockerCertPath(env) : undefined);
  if (certPath !== undefined)
    return {
      kind,
      address,
      client: { host: tcp[1], port: Number(tcp[2]), protocol: "https", ...certificates(certPath) },
    };
  if (isPlainRemoteTcp(address, { tls: false }) && !options.insecure)
    throw new ContainerError({ code: "OE_ENGINE_INSECURE", address });
  return { kind, address, client: { host: tcp[1], port: Number(tcp[2]), protocol: "http" } };
}

function dockerCertPath(env: Record<string, string | undefined>): string {
  return env.DOCKER_CERT_PATH ?? join(env.HOME ?? homedir(), ".docker");
}

/** The CA that signs the engine's certificate, and this client's certificate and key, read when connecting. */
function certificates(certPath: string): { ca: Buffer; cert: Buffer; key: Buffer } {
  const read = (file: string) => {
    try {
      return readFileSync(join(certPath, file));
    } catch (error) {
      throw new ContainerError({ code: "OE_ENGINE_TLS", certPath, reason: errorMessage(error) }, { cause: error });
    }
  };
  return { ca: read("ca.pem"), cert: read("cert.pem"), key: read("key.pem") };
}

/** Where the engine is looked for: socketPath, else host, else DOCKER_HOST, else the engine's default socket. */
export function engineAddress(options: EngineOptions = {}): string {
  if (options.socketPath) return `unix://${options.socketPath}`;
  return (
    options.host ?? (options.env ?? process.env).DOCKER_HOST ?? `unix://${DEFAULT_SOCKETS[options.engine ?? "docker"]}`
  );
}

/** Connects and checks that the engine answers; throws OE_ENGINE_UNREACHABLE saying how to get one (callers add theirs). */
export async function connectEngine(options: EngineOptions = {}): Promise<Engine> {
  const { kind, address, client } = engineTarget(options);
  // Loaded on first use: dockerode (with the ssh2 and gRPC modules it brings) is tens of MB of a runner's resident memory,
  // and a run whose candidates and judges never use a container has no use for it.
  const { default: Docker } = await import("dockerode");
  const engine: Engine = { docker: new Docker(client), kind, address };
  try {
    await withTimeout(engine.docker.ping(), 5_000, "no answer within 5 s");
  } catch (error) {
    throw new ContainerError(
      { code: "OE_ENGINE_UNREACHABLE", address: engine.address, reason: errorMessage(error) },
      { cause: error },
    );
  }
  return engine;
}

/** True when an engine answers; for tests and diagnostics that must not throw. */
export async function isEngineReachable(options: EngineOptions = {}): Promise<boolean> {
  try {
    await connectEngine(options);
    return true;
  } catch {
    return false;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return (error as { json?: { message?: string } }).json?.message ?? error.message;
  return String(error);
}

/** The HTTP status the engine answered with, when the error came from it. */
export function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number } | null)?.statusCode;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
