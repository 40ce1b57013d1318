// The candidate's only way out (docs/design/container-isolation.md). Two roles, one small Bun program:
//   proxy <socket> <allowed host:port,…>   in the egress container (host network): accepts on a unix socket in the
//                                          shared engine volume, reads one `CONNECT host:port`, and only if allowed
//                                          dials it, or relays it to the runner when it is on loopback (the runner's
//                                          127.0.0.1, not the engine host's: frames on stdin/stdout), then pipes
//                                          bytes both ways. Its log lines go to stderr.
//   forward <port> <socket> [<host:port>]  in the candidate container (no network): listens on 127.0.0.1:<port>
//                                          and pipes each connection to the socket; with a target it sends the
//                                          CONNECT itself (a provider on 127.0.0.1 keeps its base URL), without one
//                                          the client speaks CONNECT (HTTPS_PROXY).
// The runner's end of the relay (packages/openeval/src/candidate/container/egress-relay.ts) loads this file for the
// frame format, so both ends share one definition.
import { connect, createServer, type Socket } from "node:net";

/**
 * One relayed connection's frames, `[u32 stream][u8 kind][u32 length][payload]` (big-endian): `open` (payload
 * `host:port`, proxy → runner), `opened`, `data`, `end` (the sender's side is done), `reset` (the stream is gone; before
 * `opened` it refuses the open; payload: why) and `credit` (u32: bytes the receiver has passed on, so the sender may
 * send that many more).
 */
export const FRAME_KINDS = ["open", "opened", "data", "end", "reset", "credit"] as const;
export type FrameKind = (typeof FRAME_KINDS)[number];
export interface Frame {
  stream: number;
  kind: FrameKind;
  payload: Uint8Array;
}
const HEADER_BYTES = 9;
/** The largest payload of one frame; a socket's chunks are split to it. */
export const MAX_PAYLOAD = 64 * 1024;
/**
 * Bytes one side may send on a stream before the other has passed them on: past it the socket pauses, so the other
 * side holds at most this plus one read of the socket per stream.
 */
export const WINDOW = 256 * 1024;
/** Targets on loopback are the runner's: relayed, never dialed from the engine host. */
export const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost"]);

export function encodeFrame(stream: number, kind: FrameKind, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame.writeUInt32BE(stream, 0);
  frame.writeUInt8(FRAME_KINDS.indexOf(kind), 4);
  frame.writeUInt32BE(payload.length, 5);
  frame.set(payload, HEADER_BYTES);
  return frame;
}

/** Frames from a byte stream that may split them anywhere; a frame of an unknown kind or over the limit throws. */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Uint8Array): Frame[] {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const frames: Frame[] = [];
    while (data.length >= HEADER_BYTES) {
      const stream = data.readUInt32BE(0);
      const kind = FRAME_KINDS[data[4]!];
      const length = data.readUInt32BE(5);
      if (kind === undefined)
        throw new Error(
          `egress relay: frame kind ${data[4]} (stream ${stream}) is not one of ${FRAME_KINDS.join(", ")}`,
        );
      if (length > MAX_PAYLOAD)
        throw new Error(
          `egress relay: a ${length}-byte ${kind} frame (stream ${stream}) is over the ${MAX_PAYLOAD}-byte limit`,
        );
      if (data.length < HEADER_BYTES + length) break;
      frames.push({ stream, kind, payload: data.slice(HEADER_BYTES, HEADER_BYTES + length) });
      data = data.subarray(HEADER_BYTES + length);
    }
    this.pending = Buffer.from(data);
    return frames;
  }
}

interface LinkStream {
  socket: Socket | null;
  /** Bytes this side may still send before a credit. */
  window: number;
  /** Bytes received and passed on, not yet credited back. */
  unacked: number;
  sentEnd: boolean;
  /** Set while an open waits for `opened` or `reset`. */
  opening: ((refusal: string | null) => void) | null;
}

/**
 * Many connections over one frame stream, either end: sockets attached to streams are piped both ways, each
 * direction held to WINDOW bytes in flight (a socket pauses until credit comes back), ends and resets passed on.
 */
export class FrameLink {
  private readonly streams = new Map<number, LinkStream>();
  private nextStream = 1;

  constructor(
    private readonly send: (frame: Uint8Array) => void,
    /** The runner's end: the proxy asks it to open a stream to `target`. */
    private readonly onOpen: ((stream: number, target: string) => void) | null,
  ) {}

  /** The proxy's end: asks the other to open `target`; `done` gets null once it has, else why not. */
  open(target: string, done: (refusal: string | null) => void): number {
    const stream = this.nextStream++;
    this.streams.set(stream, { socket: null, window: WINDOW, unacked: 0, sentEnd: false, opening: done });
    this.send(encodeFrame(stream, "open", Buffer.from(target)));
    return stream;
  }

  /** The runner's end: the stream the other asked for is open at `socket`. */
  accept(stream: number, socket: Socket): void {
    this.streams.set(stream, { socket: null, window: WINDOW, unacked: 0, sentEnd: false, opening: null });
    this.send(encodeFrame(stream, "opened"));
    this.attach(stream, socket);
  }

  refuse(stream: number, reason: string): void {
    this.streams.delete(stream);
    this.send(encodeFrame(stream, "reset", Buffer.from(reason)));
  }

  /** Pipes an open stream and its socket both ways, `first` (bytes the socket already gave) ahead. */
  attach(stream: number, socket: Socket, first?: Uint8Array): void {
    const entry = this.streams.get(stream);
    if (!entry) return void socket.destroy();
    // The client left while the other end was opening: that end's socket goes too.
    if (socket.destroyed) return this.refuse(stream, "connection closed");
    entry.socket = socket;
    const forward = (chunk: Uint8Array) => {
      for (let at = 0; at < chunk.length; at += MAX_PAYLOAD)
        this.send(encodeFrame(stream, "data", chunk.subarray(at, at + MAX_PAYLOAD)));
      entry.window -= chunk.length;
      if (entry.window <= 0) socket.pause();
    };
    if (first && first.length > 0) forward(first);
    socket.on("data", forward);
    socket.on("end", () => {
      entry.sentEnd = true;
      this.send(encodeFrame(stream, "end"));
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      if (this.streams.get(stream) !== entry) return;
      this.streams.delete(stream);
      if (!entry.sentEnd) this.send(encodeFrame(stream, "reset", Buffer.from("connection closed")));
    });
    socket.resume();
  }

  receive(frame: Frame): void {
    const entry = this.streams.get(frame.stream);
    switch (frame.kind) {
      case "open":
        if (!this.onOpen) throw new Error(`egress relay: stream ${frame.stream} was opened from the runner's side`);
        if (entry) throw new Error(`egress relay: stream ${frame.stream} was opened twice`);
        return this.onOpen(frame.stream, Buffer.from(frame.payload).toString("utf8"));
      case "opened":
        if (entry?.opening) {
          const done = entry.opening;
          entry.opening = null;
          done(null);
        }
        return;
      case "data":
        // Data for a stream this side has closed: tell the sender to stop, as TCP would.
        if (!entry?.socket) return this.refuse(frame.stream, "no such stream");
        entry.socket.write(frame.payload, (error) => {
          if (error || this.streams.get(frame.stream) !== entry) return;
          entry.unacked += frame.payload.length;
          if (entry.unacked < WINDOW / 4) return;
          const credit = Buffer.alloc(4);
          credit.writeUInt32BE(entry.unacked);
          entry.unacked = 0;
          this.send(encodeFrame(frame.stream, "credit", credit));
        });
        return;
      case "end":
        entry?.socket?.end();
        return;
      case "reset":
        if (!entry) return;
        this.streams.delete(frame.stream);
        entry.opening?.(Buffer.from(frame.payload).toString("utf8") || "reset");
        entry.socket?.destroy();
        return;
      case "credit":
        if (!entry || frame.payload.length !== 4) return;
        entry.window += Buffer.from(frame.payload).readUInt32BE(0);
        if (entry.window > 0) entry.socket?.resume();
        return;
    }
  }

  /** Ends every stream at once: the other end is gone. */
  close(): void {
    for (const entry of this.streams.values()) {
      entry.opening?.("the relay closed");
      entry.socket?.destroy();
    }
    this.streams.clear();
  }
}

function pipe(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const close = () => {
    a.destroy();
    b.destroy();
  };
  a.on("error", close).on("close", close);
  b.on("error", close).on("close", close);
}

/** Where a plain proxy request (`GET http://host[:port]/… HTTP/1.1`) was going: refused, but named in the log. */
function plainTarget(requestLine: string): string | null {
  const match = /^[A-Z]+ http:\/\/([^/\s:]+)(?::(\d+))?[/\s]/.exec(requestLine);
  return match ? `${match[1]}:${match[2] ?? "80"}` : null;
}

function proxy(socketPath: string, allowList: string): void {
  const allowed = new Set(allowList.split(",").filter(Boolean));
  const link = relayOverStdio();
  const server = createServer((client) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) {
        if (head.length > 8192) client.destroy();
        return;
      }
      client.off("data", onData);
      client.pause();
      const requestLine = head.subarray(0, end + 2).toString("latin1");
      const match = /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.[01]\r\n/.exec(requestLine);
      const target = match ? `${match[1]}:${match[2]}` : null;
      if (target === null || !allowed.has(target)) {
        console.error(`refused ${target ?? plainTarget(requestLine) ?? "a request that is not CONNECT"}`);
        client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      const rest = head.subarray(end + 4);
      if (LOOPBACK_HOSTS.has(match![1]!)) {
        const stream = link.open(target, (refusal) => {
          if (refusal !== null) return void client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          link.attach(stream, client, rest);
        });
        return;
      }
      const upstream = connect({ host: match![1]!, port: Number(match![2]) }, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (rest.length > 0) upstream.write(rest);
        pipe(client, upstream);
        client.resume();
      });
      upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"));
    };
    client.on("data", onData);
    client.on("error", () => client.destroy());
  });
  server.listen(socketPath, () => console.error(`listening ${socketPath}`));
}

/** The proxy's link to the runner: frames out on stdout, in on stdin; stdin closing means the runner is gone. */
function relayOverStdio(): FrameLink {
  const link = new FrameLink((frame) => void process.stdout.write(frame), null);
  const decoder = new FrameDecoder();
  process.stdin.on("data", (chunk: Buffer) => {
    try {
      for (const frame of decoder.push(chunk)) link.receive(frame);
    } catch (error) {
      console.error((error as Error).message);
      process.exit(1);
    }
  });
  process.stdin.on("end", () => process.exit(0));
  return link;
}

function forward(port: string, socketPath: string, target?: string): void {
  const server = createServer((client) => {
    client.pause();
    const upstream = connect(socketPath, () => {
      if (!target) {
        pipe(client, upstream);
        client.resume();
        return;
      }
      upstream.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) return;
        upstream.off("data", onData);
        if (!head.subarray(0, end).toString("latin1").startsWith("HTTP/1.1 200")) {
          client.destroy();
          upstream.destroy();
          return;
        }
        const rest = head.subarray(end + 4);
        if (rest.length > 0) client.write(rest);
        pipe(client, upstream);
        client.resume();
      };
      upstream.on("data", onData);
    });
    upstream.on("error", () => client.destroy());
  });
  server.listen(Number(port), "127.0.0.1", () => console.log(`listening 127.0.0.1:${port}`));
}

if (import.meta.main) {
  const [role, ...args] = process.argv.slice(2);
  if (role === "proxy" && args.length === 2) proxy(args[0]!, args[1]!);
  else if (role === "forward" && (args.length === 2 || args.length === 3)) forward(args[0]!, args[1]!, args[2]);
  else {
    console.error("usage: openeval-egress proxy <socket> <host:port,…> | forward <port> <socket> [<host:port>]");
    process.exit(2);
  }
}
