// The egress relay on a real engine (`npm run test:containers`), from the candidate image (built when missing): a
// program in a candidate container (no network) reaches an HTTP server of this test on the runner's 127.0.0.1 through
// its forwarder, the egress proxy and the relay, which dials it here (on any engine, local or remote, the same path);
// a loopback target not allowed is refused; closing the relay ends the proxy. Nothing is left on the engine.
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineAddress,
  isEngineReachable,
  openSandboxEngine,
  type ContainerEngine,
  type Sandbox,
  type SandboxSpec,
} from "../../sandbox/index.ts";
import { buildCandidateImage } from "../candidate-image.ts";
import { STANDARD_LAYOUT } from "./container-layout.ts";
import { openEgressRelay } from "./egress-relay.ts";

const reachable = await isEngineReachable();
const LABELS = { "openeval.test": `egress-relay-${process.pid}` };
const SOCKET = `${STANDARD_LAYOUT.egressDir}/egress.sock`;
const text = (chunk: Uint8Array) => new TextDecoder().decode(chunk);

const requests: string[] = [];
const server = createHttpServer((request, response) => {
  requests.push(request.url ?? "");
  response.end("served on the runner's loopback");
});
const decoyConnections: number[] = [];
const decoy = createServer((socket) => socket.destroy());
decoy.on("connection", () => decoyConnections.push(Date.now()));
const portOf = (listening: { address(): unknown }) => (listening.address() as { port: number }).port;

let engine: ContainerEngine;
let image: string;
let volume: string | null = null;
const sandboxes: Sandbox[] = [];

async function create(network: SandboxSpec["network"]): Promise<Sandbox> {
  const sandbox = await engine.create({
    image,
    labels: LABELS,
    folders: [],
    workdir: STANDARD_LAYOUT.egressDir,
    limits: { cpus: 0.5, memoryMiB: 256, pids: 128, tmpMiB: 16 },
    readOnlyRoot: true,
    lifetimeMs: 300_000,
    network,
    volumes: [{ name: volume!, path: STANDARD_LAYOUT.egressDir }],
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/** Waits until `seen()` says "listening" (or the run it belongs to ends first, which fails). */
async function listening(seen: () => string, run: Promise<unknown>): Promise<void> {
  let ended = false;
  void run.finally(() => (ended = true));
  while (!seen().includes("listening") && !ended) await Bun.sleep(50);
  expect(seen()).toContain("listening");
}

describe.skipIf(!reachable)(`the egress relay on ${engineAddress()}`, () => {
  beforeAll(async () => {
    image = (
      await buildCandidateImage({
        onProgress: (event) => event.kind === "phase" && console.error(`[candidate image] ${event.message}`),
      })
    ).imageId;
    engine = await openSandboxEngine("container");
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
  }, 1_800_000);

  afterAll(async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.remove()));
    if (volume) await engine.removeVolume(volume);
    server.close();
    decoy.close();
    expect(await engine.list(LABELS)).toEqual([]);
  });

  it("relays a candidate's connection to the runner's 127.0.0.1, refuses one not allowed, and ends the proxy when closed", async () => {
    const port = portOf(server);
    const allowed = `127.0.0.1:${port}`;
    volume = await engine.createVolume(LABELS);
    const [proxy, candidate] = await Promise.all([create({ kind: "host" }), create({ kind: "none" })]);
    const deadline = Date.now() + 240_000;

    let log = "";
    const relay = await openEgressRelay([allowed], { write: (chunk) => void (log += text(chunk)) });
    const proxyRun = proxy.run([...STANDARD_LAYOUT.egressProgram, "proxy", SOCKET, allowed], {
      deadline,
      stdin: relay.input,
      stdout: relay.output,
      stderr: { write: (chunk) => void (log += text(chunk)) },
    });
    await listening(() => log, proxyRun);

    let forwarderLog = "";
    const forwarder = candidate.run([...STANDARD_LAYOUT.egressProgram, "forward", String(port), SOCKET, allowed], {
      deadline,
      stdout: { write: (chunk) => void (forwarderLog += text(chunk)) },
    });
    await listening(() => forwarderLog, forwarder);

    // The provider's base URL unchanged inside: the forwarder on the same port, the relay dialing it here.
    let fetched = "";
    const fetch = await candidate.run(
      [
        "bun",
        "-e",
        `const r = await fetch("http://${allowed}/through-the-relay"); console.log(r.status, await r.text())`,
      ],
      { deadline, stdout: { write: (chunk) => void (fetched += text(chunk)) } },
    );
    expect(fetch.exitCode, fetched).toBe(0);
    expect(fetched.trim()).toBe("200 served on the runner's loopback");
    expect(requests).toEqual(["/through-the-relay"]);
    expect(relay.dialed).toBe(1);

    // A CONNECT straight to the proxy's socket for a loopback port not allowed: 403, logged, never dialed.
    let refused = "";
    const connect = [
      `const s = await Bun.connect({ unix: ${JSON.stringify(SOCKET)}, socket: { data: (_, d) => { console.log(new TextDecoder().decode(d).split(" ")[1]); process.exit(0); } } });`,
      `s.write("CONNECT 127.0.0.1:${portOf(decoy)} HTTP/1.1\\r\\n\\r\\n");`,
    ].join("\n");
    const refusal = await candidate.run(["bun", "-e", connect], {
      deadline,
      stdout: { write: (chunk) => void (refused += text(chunk)) },
    });
    expect(refusal.exitCode, refused).toBe(0);
    expect(refused.trim()).toBe("403");
    expect(log).toContain(`refused 127.0.0.1:${portOf(decoy)}`);
    expect(decoyConnections).toEqual([]);
    expect(relay.dialed).toBe(1);

    // The runner's end goes: the proxy's stdin ends and it exits, its socket with it.
    relay.close();
    expect(await proxyRun).toMatchObject({ exitCode: 0, timedOut: false });
    await candidate.kill();
    await forwarder;
  });
});
