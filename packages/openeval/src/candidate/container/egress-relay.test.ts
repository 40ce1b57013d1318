// The egress relay without an engine: its frame format (split anywhere, streams interleaved, bad frames refused), and
// the runner's end against the image program's own link as the proxy, relaying to a TCP server of this test on
// 127.0.0.1: allowed targets are dialed and piped both ways, with large bodies held to the window; anything else is
// refused and logged; closing leaves no connection.
import { createServer, connect, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  encodeFrame,
  FrameDecoder,
  FrameLink,
  MAX_PAYLOAD,
  WINDOW,
} from "../../../../../images/candidate/openeval-egress.ts";
import { openEgressRelay, type EgressRelay } from "./egress-relay.ts";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

describe("the relay's frames", () => {
  it("decode as they were encoded, however the bytes are split, several streams interleaved", () => {
    const bytes = Buffer.concat([
      encodeFrame(1, "open", Buffer.from("127.0.0.1:80")),
      encodeFrame(2, "data", Buffer.from("two")),
      encodeFrame(1, "data", Buffer.alloc(MAX_PAYLOAD, 7)),
      encodeFrame(2, "end"),
      encodeFrame(1, "reset", Buffer.from("why")),
    ]);
    const decoder = new FrameDecoder();
    // Pieces of 1, 2, 3, 5 and 4096 bytes: every header and payload is cut somewhere.
    const frames = [];
    for (let at = 0, turn = 0; at < bytes.length; turn++) {
      const size = [1, 2, 3, 5, 4096][turn % 5]!;
      frames.push(...decoder.push(bytes.subarray(at, at + size)));
      at += size;
    }
    expect(frames.map((frame) => [frame.stream, frame.kind, frame.payload.length])).toEqual([
      [1, "open", 12],
      [2, "data", 3],
      [1, "data", MAX_PAYLOAD],
      [2, "end", 0],
      [1, "reset", 3],
    ]);
    expect(text(frames[0]!.payload)).toBe("127.0.0.1:80");
    expect(frames[2]!.payload.every((byte) => byte === 7)).toBe(true);
    expect(new FrameDecoder().push(bytes)).toHaveLength(5);
  });

  it("refuse a frame of an unknown kind, and one over the size limit before its payload arrives", () => {
    const unknown = Buffer.from(encodeFrame(3, "data"));
    unknown[4] = 9;
    expect(() => new FrameDecoder().push(unknown)).toThrow(
      "egress relay: frame kind 9 (stream 3) is not one of open, opened, data, end, reset, credit",
    );
    const huge = Buffer.from(encodeFrame(4, "data"));
    huge.writeUInt32BE(MAX_PAYLOAD + 1, 5);
    expect(() => new FrameDecoder().push(huge)).toThrow(
      `egress relay: a ${MAX_PAYLOAD + 1}-byte data frame (stream 4) is over the ${MAX_PAYLOAD}-byte limit`,
    );
  });
});

/** A TCP server on 127.0.0.1 that echoes, keeping its connections to see them closed. */
async function echoServer(): Promise<{ server: Server; port: number; sockets: Socket[]; closed: () => number }> {
  const sockets: Socket[] = [];
  let closed = 0;
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.pipe(socket);
    socket.on("error", () => {});
    socket.on("close", () => closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, sockets, closed: () => closed };
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await Bun.sleep(10);
}

/** The proxy's end, as the image runs it, wired to the relay in this process; `connect` plays a candidate's client. */
function proxyEnd(relay: EgressRelay) {
  const link = new FrameLink((frame) => relay.output.write(frame), null);
  const decoder = new FrameDecoder();
  const reading = (async () => {
    const reader = relay.input.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      for (const frame of decoder.push(read.value)) link.receive(frame);
    // Its stdin ended: the proxy exits, and its connections with it.
    link.close();
  })();
  const open = async (target: string): Promise<{ client: Socket; refusal: string | null }> => {
    // The proxy's side of the candidate's connection is the accepted end of a local pair.
    const pair = createServer();
    await new Promise<void>((resolve) => pair.listen(0, "127.0.0.1", resolve));
    const accepted = new Promise<Socket>((resolve) => pair.once("connection", resolve));
    const client = connect((pair.address() as { port: number }).port, "127.0.0.1");
    const inside = await accepted;
    pair.close();
    inside.pause();
    const refusal = await new Promise<string | null>((resolve) => {
      const stream = link.open(target, (refused) => {
        if (refused === null) link.attach(stream, inside);
        else inside.destroy();
        resolve(refused);
      });
    });
    return { client, refusal };
  };
  return { open, reading };
}

function exchange(client: Socket, payload: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    client.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).length >= payload.length) resolve(Buffer.concat(chunks));
    });
    client.on("error", reject);
    client.write(payload);
  });
}

describe("a link without credit coming back", () => {
  it("stops sending a socket's bytes past its window (and the socket's one read beyond it), the socket paused", async () => {
    const { server, port } = await echoServer();
    let sent = 0;
    const link = new FrameLink(
      (frame) => void (sent += frame.length > 9 ? frame.length - 9 : 0),
      () => {},
    );
    const client = connect(port, "127.0.0.1");
    await new Promise((resolve) => client.once("connect", resolve));
    let largestRead = 0;
    client.on("data", (chunk: Buffer) => void (largestRead = Math.max(largestRead, chunk.length)));
    link.accept(1, client);
    // The echo server sends 4 MiB back; nothing credits the link, so the window and one read are all that leave it.
    client.write(Buffer.alloc(16 * WINDOW));
    await waitFor(() => sent >= WINDOW);
    await Bun.sleep(300);
    const settled = sent;
    await Bun.sleep(300);
    expect(sent).toBe(settled);
    expect(sent).toBeLessThanOrEqual(WINDOW + largestRead);
    expect(sent).toBeLessThan(16 * WINDOW);
    expect(client.isPaused()).toBe(true);
    link.close();
    server.close();
  });
});

describe("the runner's end of the relay", () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
  });

  it("dials an allowed loopback target for each stream, both ways at once, bodies past the window included", async () => {
    const { server, port, sockets, closed } = await echoServer();
    const log: string[] = [];
    const relay = await openEgressRelay([`127.0.0.1:${port}`], { write: (chunk) => void log.push(text(chunk)) });
    cleanup.push(
      () => relay.close(),
      () => server.close(),
    );
    const proxy = proxyEnd(relay);
    const [first, second] = await Promise.all([proxy.open(`127.0.0.1:${port}`), proxy.open(`127.0.0.1:${port}`)]);
    expect([first!.refusal, second!.refusal]).toEqual([null, null]);
    // 3 MiB each way: twelve windows, so credit must come back for it to finish.
    const big = Buffer.alloc(3 * 1024 * 1024);
    for (let at = 0; at < big.length; at++) big[at] = at % 251;
    const [echoedBig, echoedSmall] = await Promise.all([
      exchange(first!.client, big),
      exchange(second!.client, Buffer.from("hello over the relay")),
    ]);
    expect(echoedBig.equals(big)).toBe(true);
    expect(echoedSmall.toString()).toBe("hello over the relay");
    expect(relay.dialed).toBe(2);
    expect(sockets).toHaveLength(2);
    expect(log).toEqual([]);

    // The candidate's client ends: the runner's connection ends with it, the other stays.
    second!.client.end();
    await waitFor(() => closed() === 1);
    expect(first!.client.destroyed).toBe(false);

    // The proxy's run ends: every connection goes, and the proxy's stdin ends.
    relay.close();
    await proxy.reading;
    await waitFor(() => closed() === 2 && first!.client.destroyed);
  });

  it("refuses a target outside the allow-list, or not on loopback, without dialing it, and logs each", async () => {
    const { server, port, sockets } = await echoServer();
    const log: string[] = [];
    const relay = await openEgressRelay(["127.0.0.1:1", "example.com:443"], {
      write: (chunk) => void log.push(text(chunk)),
    });
    cleanup.push(
      () => relay.close(),
      () => server.close(),
    );
    const proxy = proxyEnd(relay);
    const outside = await proxy.open(`127.0.0.1:${port}`);
    const notLoopback = await proxy.open("example.com:443");
    expect([outside.refusal, notLoopback.refusal]).toEqual(["not allowed", "not allowed"]);
    expect(log.join("")).toBe(`refused 127.0.0.1:${port}\nrefused example.com:443\n`);
    expect(relay.dialed).toBe(0);
    expect(sockets).toEqual([]);
    const unreachable = await proxy.open("127.0.0.1:1");
    expect(unreachable.refusal).toMatch(/ECONNREFUSED|refused/i);
  });

  it("stops at a broken frame stream: logged, every connection closed", async () => {
    const log: string[] = [];
    const relay = await openEgressRelay([], { write: (chunk) => void log.push(text(chunk)) });
    const reader = relay.input.getReader();
    const bad = Buffer.from(encodeFrame(5, "end"));
    bad[4] = 200;
    relay.output.write(bad);
    expect(log.join("")).toBe(
      "egress relay: frame kind 200 (stream 5) is not one of open, opened, data, end, reset, credit\n",
    );
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});
