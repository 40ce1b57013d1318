// The one rule about how a container engine may be reached: an engine API is root on its host for anyone who can
// reach it, so plain TCP is accepted only on loopback; any other `tcp://` engine needs TLS with client certificates,
// or `insecure: true` written beside it (and then every run warns).

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** The host of a `tcp://host:port` engine address; null for unix sockets and ssh. */
export function tcpEngineHost(address: string): string | null {
  const match = /^tcp:\/\/(\[[^\]]+\]|[^:/]+)(?::\d+)?\/?$/.exec(address);
  return match ? match[1]! : null;
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Whether an engine address is plain TCP to another machine: true for `tcp://` on a non-loopback address without TLS.
 * @example isPlainRemoteTcp("tcp://10.0.0.2:2375", { tls: false }) // true
 */
export function isPlainRemoteTcp(address: string, options: { tls: boolean }): boolean {
  const host = tcpEngineHost(address);
  return host !== null && !options.tls && !isLoopbackHost(host);
}

/** What to write instead, for the error that refuses such an engine. */
export const PLAIN_TCP_REMEDY =
  "give it TLS with client certificates (tls: { certPath } in candidate.container.engines, or DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH), use an ssh:// address, or, knowing that anyone who can reach it is root on its host, write insecure: true beside it in candidate.container.engines";
