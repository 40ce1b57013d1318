// The candidate's only way out (docs/design/container-isolation.md). Two roles, one small Bun program:
//   proxy <socket> <allowed host:port,…>   in the egress container (host network): accepts on a unix socket in the
//                                          shared engine volume, reads one `CONNECT host:port`, dials it only if
//                                          allowed, then pipes bytes both ways.
//   forward <port> <socket> [<host:port>]  in the candidate container (no network): listens on 127.0.0.1:<port>
//                                          and pipes each connection to the socket; with a target it sends the
//                                          CONNECT itself (a provider on 127.0.0.1 keeps its base URL), without one
//                                          the client speaks CONNECT (HTTPS_PROXY).
import { connect, createServer, type Socket } from "node:net";

const [role, ...args] = process.argv.slice(2);

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

function proxy(socketPath: string, allowList: string): void {
  const allowed = new Set(allowList.split(",").filter(Boolean));
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
      const match = /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.[01]\r\n/.exec(head.subarray(0, end + 2).toString("latin1"));
      const target = match ? `${match[1]}:${match[2]}` : null;
      if (target === null || !allowed.has(target)) {
        console.log(`refused ${target ?? "a request that is not CONNECT"}`);
        client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      const upstream = connect({ host: match![1]!, port: Number(match![2]) }, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        const rest = head.subarray(end + 4);
        if (rest.length > 0) upstream.write(rest);
        pipe(client, upstream);
      });
      upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"));
    };
    client.on("data", onData);
    client.on("error", () => client.destroy());
  });
  server.listen(socketPath, () => console.log(`listening ${socketPath}`));
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

if (role === "proxy" && args.length === 2) proxy(args[0]!, args[1]!);
else if (role === "forward" && (args.length === 2 || args.length === 3)) forward(args[0]!, args[1]!, args[2]);
else {
  console.error("usage: openeval-egress proxy <socket> <host:port,…> | forward <port> <socket> [<host:port>]");
  process.exit(2);
}
