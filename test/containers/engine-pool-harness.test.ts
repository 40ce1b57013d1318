// The engine-pool test harness itself: three real dockerd (one over TLS), each in its own network namespace, each
// keeping its own containers; after a kill -9 of one of them, stop() still leaves nothing behind.
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  canStartEnginePool,
  containersCreatedOn,
  dockerFor,
  startEnginePool,
  type TestEngine,
  type TestEnginePool,
} from "../helpers/engine-pool.ts";
import { processesMatching } from "../helpers/processes.ts";

const check = canStartEnginePool();
const IMAGE = "oe-pool-sleep:1";

function engine(pool: TestEnginePool, name: string): TestEngine {
  const found = pool.engines.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no engine ${name}`);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

function run(command: string[]): string {
  return Bun.spawnSync(command, { stdout: "pipe", stderr: "ignore" }).stdout.toString();
}

/** An image of /usr/bin/sleep and its libraries, made from this machine's files: no registry is needed. */
async function importSleepImage(docker: Docker): Promise<void> {
  const files = [...run(["ldd", "/usr/bin/sleep"]).matchAll(/(\/\S+) \(0x/g)].map((match) => match[1] as string);
  const tar = Bun.spawn(["tar", "-C", "/", "-ch", ...["/usr/bin/sleep", ...files].map((file) => file.slice(1))], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const [repo, tag] = IMAGE.split(":");
  const progress = await docker.importImage(Readable.fromWeb(tar.stdout as never), { repo, tag });
  let output = "";
  for await (const chunk of progress) output += chunk.toString();
  if (output.includes('"error"')) throw new Error(`import failed: ${output}`);
}

async function startSleeper(docker: Docker, name: string): Promise<Docker.Container> {
  const container = await docker.createContainer({
    name,
    Image: IMAGE,
    Cmd: ["/usr/bin/sleep", "600"],
    HostConfig: { NetworkMode: "none" },
  });
  await container.start();
  return container;
}

describe("engine pool options", () => {
  it.each([
    [{ names: [] }, "an engine pool needs between 1 and 200 names"],
    [{ names: ["a", "a"] }, 'engine name "a" is given twice: names must be unique'],
    [{ names: ["A b"] }, 'engine name "A b": use lower-case letters, digits and dashes (at most 31)'],
    [{ names: ["a"], tls: ["b"] }, 'tls names "b", which is not among the engine names'],
  ])("refuses %j", async (options, message) => {
    await expect(startEnginePool(options)).rejects.toThrow(message);
  });
});

describe.skipIf(!check.ok)(`a pool of three engines${check.ok ? "" : ` (skipped: ${check.reason})`}`, () => {
  let pool: TestEnginePool;
  const since = new Date();

  beforeAll(async () => {
    pool = await startEnginePool({ names: ["a", "b", "c"], tls: ["b"] });
  }, 300_000);
  afterAll(async () => {
    await pool?.stop();
  }, 120_000);

  it("each engine answers a ping through dockerode, plain TCP on 2375 and TLS on 2376", async () => {
    expect(pool.engines.map((candidate) => [candidate.name, candidate.host.endsWith(":2376")])).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
    ]);
    for (const candidate of pool.engines) expect((await dockerFor(candidate).ping()).toString()).toBe("OK");
    const ids = await Promise.all(pool.engines.map(async (candidate) => (await dockerFor(candidate).info()).ID));
    expect(new Set(ids).size).toBe(3);
    expect(engine(pool, "b").tls?.certPath).toMatch(new RegExp(`^${pool.root}/`));
    for (const file of ["ca.pem", "cert.pem", "key.pem"])
      expect(existsSync(`${engine(pool, "b").tls?.certPath}/${file}`)).toBe(true);
  });

  it("the TLS engine refuses a client without a certificate and answers one with it", async () => {
    const b = engine(pool, "b");
    const port = Number(new URL(b.host.replace("tcp://", "http://")).port);
    const noCertificate = new Docker({ host: b.address, port, protocol: "https", ca: b.tls?.caCert, timeout: 10_000 });
    await expect(noCertificate.ping()).rejects.toThrow(/BAD_CERTIFICATE|CERTIFICATE_REQUIRED/);
    // The client checks the engine too: without the pool's CA, the engine's certificate is not trusted.
    const unknownCa = new Docker({ host: b.address, port, protocol: "https", timeout: 10_000 });
    await expect(unknownCa.ping()).rejects.toThrow(/unable to verify the first certificate/);
    const plain = new Docker({ host: b.address, port, protocol: "http", timeout: 10_000 });
    await expect(plain.ping()).rejects.toThrow(/Client sent an HTTP request to an HTTPS server/);
    expect((await dockerFor(b).ping()).toString()).toBe("OK");
  });

  it("each dockerd lives in its own network namespace, which holds only lo and the engine's veth", () => {
    const namespaces = pool.engines.map((candidate) => readlinkSync(`/proc/${candidate.pid()}/ns/net`));
    expect(new Set([...namespaces, readlinkSync("/proc/self/ns/net")]).size).toBe(4);
    for (const candidate of pool.engines) {
      const devices = readFileSync(`/proc/${candidate.pid()}/net/dev`, "utf8")
        .split("\n")
        .slice(2)
        .map((line) => line.split(":")[0]?.trim())
        .filter(Boolean);
      expect(devices.sort()).toEqual([candidate.veth.engine, "lo"].sort());
      const inside = run(["ip", "-n", candidate.namespace, "-4", "-o", "addr", "show", "dev", candidate.veth.engine]);
      expect(inside).toContain(`inet ${candidate.address}/30`);
      expect(run(["ip", "-4", "-o", "addr"])).toContain(`inet ${candidate.hostAddress}/30`);
    }
  });

  it("each engine's event log shows only its own containers", async () => {
    const created: Record<string, string> = {};
    for (const name of ["a", "c"]) {
      const docker = dockerFor(engine(pool, name));
      await importSleepImage(docker);
      created[name] = (await startSleeper(docker, `sleeper-${name}`)).id;
    }
    expect(await containersCreatedOn(engine(pool, "a"), since)).toEqual([
      { id: created.a, name: "sleeper-a", role: null },
    ]);
    expect(await containersCreatedOn(engine(pool, "b"), since)).toEqual([]);
    expect(await containersCreatedOn(engine(pool, "c"), since)).toEqual([
      { id: created.c, name: "sleeper-c", role: null },
    ]);
  });

  it("after kill -9 of one engine, stop() leaves no namespace, veth, process, mount, cgroup or folder", async () => {
    const a = engine(pool, "a");
    const sleeper = (await dockerFor(a).getContainer("sleeper-a").inspect()).State.Pid;
    await expect(pool.kill9("z")).rejects.toThrow('no engine "z" in this pool: its engines are a, b, c');
    await pool.kill9("a");
    expect(isAlive(a.pid())).toBe(false);
    // Only dockerd died: its containerd, the shim and the container live on, as after a real engine crash.
    expect(processesMatching(`${pool.root}/a/`).filter(isAlive).length).toBeGreaterThan(0);
    expect(isAlive(sleeper)).toBe(true);

    await pool.stop();
    await pool.stop();
    const namespaces = run(["ip", "netns", "list"]);
    const links = run(["ip", "-o", "link"]);
    for (const candidate of pool.engines) {
      expect(namespaces).not.toContain(candidate.namespace);
      expect(links).not.toContain(candidate.veth.host);
    }
    expect(processesMatching(pool.root).filter(isAlive)).toEqual([]);
    expect(isAlive(sleeper)).toBe(false);
    expect(run(["findmnt", "-rn", "-o", "TARGET"])).not.toContain(pool.root);
    for (const candidate of pool.engines)
      expect(run(["find", "/sys/fs/cgroup", "-maxdepth", "2", "-name", candidate.namespace])).toBe("");
    expect(existsSync(pool.root)).toBe(false);
  });
});

describe.skipIf(!check.ok)("an engine pool whose start fails half-way", () => {
  it("says why, with dockerd's log, and leaves nothing behind", async () => {
    // A dockerd that notes its arguments and refuses to start over TLS: one engine fails while the other starts.
    const bin = await mkdtemp(join(tmpdir(), "openeval-failing-dockerd-"));
    await writeFile(
      join(bin, "dockerd"),
      `#!/bin/sh\necho "$*" >> ${bin}/calls\ncase "$*" in *2376*) echo "refusing to start over TLS" >&2; exit 1;; esac\nexec ${Bun.which("dockerd")} "$@"\n`,
    );
    await chmod(join(bin, "dockerd"), 0o755);
    try {
      const started = startEnginePool({ names: ["up", "down"], tls: ["down"], dockerd: join(bin, "dockerd") });
      // Should it start after all, it must not outlive the test.
      started.then((pool) => pool.stop()).catch(() => {});
      await expect(started).rejects.toThrow(
        /engine down did not answer on tcp:\/\/10\.\d+\.2\.2:2376:\nrefusing to start over TLS/,
      );
      const calls = readFileSync(join(bin, "calls"), "utf8");
      const root = calls.match(/--data-root (\S+)\/up\/data/)?.[1] as string;
      const namespaces = [...calls.matchAll(/--cgroup-parent \/(\S+)/g)].map((match) => match[1] as string);
      expect(namespaces).toHaveLength(2);
      expect(existsSync(root)).toBe(false);
      expect(processesMatching(root).filter(isAlive)).toEqual([]);
      expect(run(["findmnt", "-rn", "-o", "TARGET"])).not.toContain(root);
      for (const namespace of namespaces) {
        expect(run(["ip", "netns", "list"])).not.toContain(namespace);
        expect(run(["find", "/sys/fs/cgroup", "-maxdepth", "2", "-name", namespace])).toBe("");
      }
      expect(run(["ip", "-o", "link"])).not.toContain(namespaces[0]?.replace(/^oe-pool-(\w+)-\d+$/, "oep$1h"));
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
