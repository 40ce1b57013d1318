// Runs one command where any network use beyond loopback is seen and goes nowhere: started by offline.ts in fresh
// network and mount namespaces. Inside, every IPv4 and IPv6 address is local (so a connection to any host lands
// here, never outside), names resolve through a DNS listener of this script, and each DNS query and each
// connection to the usual ports (53, 80, 443, 8080) is an attempt. The attempts go to a JSON file; the exit code is
// the command's. Usage: bun offline-sandbox.ts <attempts.json> <command...>
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const [attemptsFile, ...command] = process.argv.slice(2);
if (!attemptsFile || command.length === 0) throw new Error("usage: offline-sandbox.ts <attempts.json> <command...>");
const attempts: string[] = [];

await setUpNamespace(dirname(attemptsFile));
const listeners = await listen();
// The command dies with this script (SIGKILL at a test's time limit), as a runner's children die with it.
const child = Bun.spawn(["setpriv", "--pdeathsig", "SIGKILL", ...command], {
  env: withoutProxies(process.env),
  stdio: ["ignore", "inherit", "inherit"],
});
const exitCode = await child.exited;
for (const listener of listeners) listener.close();
writeFileSync(attemptsFile, JSON.stringify(attempts));
process.exit(exitCode);

async function setUpNamespace(scratch: string): Promise<void> {
  // Names resolve only through our listener: DNS on 127.0.0.1, and no resolver that talks to a daemon outside.
  writeFileSync(join(scratch, "resolv.conf"), "nameserver 127.0.0.1\noptions attempts:1 timeout:1\n");
  writeFileSync(join(scratch, "nsswitch.conf"), "hosts: files dns\n");
  for (const argv of [
    ["ip", "link", "set", "lo", "up"],
    ["ip", "route", "add", "local", "0.0.0.0/0", "dev", "lo"],
    ["ip", "-6", "route", "add", "local", "::/0", "dev", "lo"],
    ["mount", "--bind", join(scratch, "resolv.conf"), "/etc/resolv.conf"],
    ["mount", "--bind", join(scratch, "nsswitch.conf"), "/etc/nsswitch.conf"],
  ]) {
    const step = Bun.spawnSync(argv, { stderr: "pipe" });
    if (step.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${step.stderr.toString().trim()}`);
  }
}

async function listen(): Promise<{ close(): void }[]> {
  const dns = await Bun.udpSocket({
    hostname: "127.0.0.1",
    port: 53,
    socket: {
      data(socket, packet, port, address) {
        attempts.push(`DNS query for ${queriedName(packet)}`);
        socket.send(refused(packet), port, address);
      },
    },
  });
  const tcp = [53, 80, 443, 8080].map((port) =>
    Bun.listen({
      hostname: "::",
      port,
      socket: {
        open(socket) {
          attempts.push(`TCP connection to ${socket.localAddress.replace(/^::ffff:/, "")} port ${port}`);
          socket.end();
        },
        data() {},
      },
    }),
  );
  return [dns, ...tcp.map((listener) => ({ close: () => listener.stop(true) }))];
}

/** The first question's name of a DNS query. */
function queriedName(packet: Buffer): string {
  const labels: string[] = [];
  for (let offset = 12; offset < packet.length && packet[offset]! > 0; offset += packet[offset]! + 1) {
    labels.push(packet.subarray(offset + 1, offset + 1 + packet[offset]!).toString("latin1"));
  }
  return labels.join(".") || "(unreadable query)";
}

/** The query answered REFUSED at once, so the resolver gives up instead of waiting. */
function refused(query: Buffer): Buffer {
  const answer = Buffer.from(query);
  answer[2] = 0x80 | (query[2]! & 0x79); // QR = response, opcode and RD kept
  answer[3] = 0x05; // RCODE = REFUSED
  answer.fill(0, 6, 12); // no answer, authority or additional records
  return answer;
}

function withoutProxies(env: NodeJS.ProcessEnv): Record<string, string> {
  // A proxy would be reached by address, past the DNS listener: take it away so every request goes out directly.
  const proxy = /^(https?|all|no)_proxy$/i;
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && !proxy.test(entry[0])),
  );
}
