// Test fixture: a second dockerd on a 127.0.0.1 TCP socket with its own data root and exec root (a "remote"
// engine: nothing shared with the runner's engine but the kernel), seeded with the local base image. Stopped and
// removed by stop().
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateDockerdArguments } from "../helpers/engine-pool.ts";

export interface SecondEngine {
  host: string;
  /** Copies an image of the runner's engine here, as a registry would carry it. */
  load(image: string): Promise<void>;
  stop(): Promise<void>;
}

const DOCKER = "/usr/bin/docker";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function ping(host: string): Promise<boolean> {
  try {
    return (await fetch(`${host.replace("tcp://", "http://")}/_ping`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

export async function startSecondEngine(baseImage: string): Promise<SecondEngine> {
  const root = await mkdtemp(join(tmpdir(), "openeval-second-engine-"));
  const host = `tcp://127.0.0.1:${await freePort()}`;
  const daemon = Bun.spawn(["dockerd", "--host", host, ...privateDockerdArguments(root)], {
    stdout: Bun.file(join(root, "dockerd.log")),
    stderr: "pipe",
    stdin: "ignore",
  });
  const stop = async () => {
    daemon.kill("SIGTERM");
    await Promise.race([daemon.exited, Bun.sleep(15_000)]);
    if (daemon.exitCode === null) daemon.kill("SIGKILL");
    await daemon.exited;
    // dockerd leaves its network namespace (exec/netns/default, made for host-network containers) mounted.
    const mounts = (await readFile("/proc/self/mounts", "utf8")).split("\n").map((line) => line.split(" ")[1] ?? "");
    for (const mount of mounts
      .filter((path) => path.startsWith(`${root}/`))
      .sort()
      .reverse())
      Bun.spawnSync(["umount", "-l", mount]);
    await rm(root, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 150 && !(await ping(host)); attempt++) await Bun.sleep(200);
  if (!(await ping(host))) {
    await stop();
    throw new Error(`the second dockerd did not answer on ${host}`);
  }
  // Images move as a tar stream from engine to engine, as a registry would carry them.
  const load = async (image: string) => {
    const copy = Bun.spawn(["sh", "-c", `${DOCKER} save "$0" | DOCKER_HOST=${host} ${DOCKER} load -q`, image], {
      stdout: "ignore",
      stderr: "pipe",
    });
    if ((await copy.exited) !== 0)
      throw new Error(`could not load ${image} into ${host}: ${await new Response(copy.stderr).text()}`);
  };
  try {
    await load(baseImage);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, load, stop };
}
