// The runner's end of the egress relay (docs/design/container-isolation.md): the egress proxy sends each allowed
// connection to a loopback target up its attached stdout as frames, and this end dials it on the runner's own
// 127.0.0.1, so a control server or a local model server on the runner serves candidates on any engine, local or
// remote. The allow-list is checked again here: a proxy that asks for anything else is refused.
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import type { OutputSink } from "../../sandbox/index.ts";
import { imageContextDirectory } from "../../util/images-directory.ts";

/** The frame format and link live in the image's egress program, loaded from the checkout (or the package). */
type EgressProgram = typeof import("../../../../../images/candidate/openeval-egress.ts");
let program: Promise<EgressProgram> | null = null;

function loadProgram(): Promise<EgressProgram> {
  program ??= import(join(imageContextDirectory("candidate"), "openeval-egress.ts")) as Promise<EgressProgram>;
  return program;
}

export interface EgressRelay {
  /** The proxy's stdin: frames to it, written while it runs. */
  readonly input: ReadableStream<Uint8Array>;
  /** Takes the proxy's stdout: frames from it. */
  readonly output: OutputSink;
  /** How many connections this end has dialed for the proxy. */
  readonly dialed: number;
  /** Ends every relayed connection and the proxy's stdin (the proxy then exits). Idempotent. */
  close(): void;
}

/**
 * Opens the runner's end for a proxy given `allow` (host:port entries, as the egress plan lists them); refusals and
 * a broken frame stream are lines in `log`, like the proxy's own.
 * @example const relay = await openEgressRelay(["127.0.0.1:4096"], log); // then run the proxy with relay.input/output
 */
export async function openEgressRelay(allow: readonly string[], log: OutputSink): Promise<EgressRelay> {
  const { FrameDecoder, FrameLink, LOOPBACK_HOSTS } = await loadProgram();
  const allowed = new Set(allow);
  const dialing = new Set<Socket>();
  const say = (line: string) => log.write(new TextEncoder().encode(`${line}\n`));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let dialed = 0;
  const input = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => close(),
  });
  const link = new FrameLink(
    (frame) => !closed && controller.enqueue(frame),
    (stream, target) => {
      const host = target.slice(0, target.lastIndexOf(":"));
      if (!allowed.has(target) || !LOOPBACK_HOSTS.has(host)) {
        say(`refused ${target}`);
        return link.refuse(stream, "not allowed");
      }
      dialed += 1;
      const socket = connect({ host, port: Number(target.slice(host.length + 1)) });
      dialing.add(socket);
      socket.once("connect", () => {
        dialing.delete(socket);
        link.accept(stream, socket);
      });
      socket.once("error", (error) => {
        if (!dialing.delete(socket)) return;
        link.refuse(stream, error.message);
      });
    },
  );
  const decoder = new FrameDecoder();
  const close = () => {
    if (closed) return;
    closed = true;
    link.close();
    for (const socket of dialing) socket.destroy();
    dialing.clear();
    try {
      controller.close();
    } catch {
      // Already cancelled by its reader.
    }
  };
  return {
    input,
    output: {
      write: (chunk) => {
        if (closed) return;
        try {
          for (const frame of decoder.push(chunk)) link.receive(frame);
        } catch (error) {
          say((error as Error).message);
          close();
        }
      },
    },
    get dialed() {
      return dialed;
    },
    close,
  };
}
