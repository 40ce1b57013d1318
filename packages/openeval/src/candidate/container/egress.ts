// Which endpoints a containerized candidate may reach (docs/design/container-isolation.md): its own provider's
// host:port, plus `candidate.network.allow`. A provider on this machine's loopback keeps its base URL (a forwarder
// listens on the same port inside the container); any other goes through HTTPS_PROXY to the egress proxy, which
// listens always, so that what else the candidate tries to reach is refused and logged.
export interface EgressPlan {
  /** host:port pairs the proxy lets through; nothing else. */
  allow: string[];
  /** Forwarders inside the container: 127.0.0.1:<port> → the proxy, sending CONNECT <target> itself when given. */
  forwards: { port: number; target: string | null }[];
  /** Added to the candidate's environment. */
  env: Record<string, string>;
}

/** Inside the candidate container, where OpenCode's fetch finds the egress proxy (HTTPS_PROXY). */
export const PROXY_PORT = 3128;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** `host` or `host:port` (default 443), as candidate.network.allow lists them. */
export function parseAllowEntry(entry: string): string {
  const match = /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
  if (!match) throw new Error(`candidate.network.allow: "${entry}" is not a host or host:port`);
  return `${match[1]!.toLowerCase()}:${match[2] ?? "443"}`;
}

export function planEgress(providerBaseURL: string | null, allow: readonly string[]): EgressPlan {
  const allowed = new Set(allow.map(parseAllowEntry));
  const forwards: EgressPlan["forwards"] = [];
  if (providerBaseURL) {
    const url = new URL(providerBaseURL);
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    if (LOOPBACK.has(url.hostname)) {
      allowed.add(`127.0.0.1:${port}`);
      forwards.push({ port, target: `127.0.0.1:${port}` });
    } else {
      allowed.add(`${url.hostname.toLowerCase()}:${port}`);
    }
  }
  // The proxy listens even when nothing but a loopback provider is allowed: whatever else the candidate's programs try
  // to reach is then refused there and recorded (the integrity check's network_refused), not lost in a failed lookup.
  const viaProxy = !forwards.some((forward) => forward.port === PROXY_PORT);
  if (viaProxy) forwards.push({ port: PROXY_PORT, target: null });
  const proxyURL = `http://127.0.0.1:${PROXY_PORT}`;
  const env: Record<string, string> = viaProxy
    ? {
        HTTPS_PROXY: proxyURL,
        HTTP_PROXY: proxyURL,
        https_proxy: proxyURL,
        http_proxy: proxyURL,
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
      }
    : {};
  return { allow: [...allowed].sort(), forwards, env };
}

/** How the proxy (and the runner's relay) log a refusal: `refused <host:port>`, or this for a request that is not CONNECT. */
const REFUSED_LINE = /^refused (.+)$/;
const NOT_CONNECT = "a request that is not CONNECT";

/**
 * The refused connections of an egress log, in order: `host:port`, or null for a request that was not a CONNECT.
 * @example refusedConnections("listening 127.0.0.1:3128\nrefused example.invalid:443\n") // ["example.invalid:443"]
 */
export function refusedConnections(log: string): (string | null)[] {
  return log.split("\n").flatMap((line) => {
    const target = REFUSED_LINE.exec(line.trim())?.[1];
    if (target === undefined) return [];
    return [target === NOT_CONNECT ? null : target];
  });
}
