// Test fixture: a second dockerd on a 127.0.0.1 TCP socket with its own data root and exec root (a "remote"
// engine: nothing shared with the runner's engine but the kernel), seeded with the local base image. Stopped and
// removed by stop().
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SecondEngine {
  host: string;
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
  const daemon = Bun.spawn(
    ["dockerd", "--host", host, "--data-root", join(root, "data"), "--exec-root", join(root, "exec"), "--pidfile", join(root, "dockerd.pid"), "--iptables=false", "--ip-forward=false", "--bridge=none"],
    { stdout: Bun.file(join(root, "dockerd.log")), stderr: "pipe", stdin: "ignore" },
  );
  const stop = async () => {
    daemon.kill("SIGTERM");
    await Promise.race([daemon.exited, Bun.sleep(15_000)]);
    if (daemon.exitCode === null) daemon.kill("SIGKILL");
    await daemon.exited;
    await rm(root, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 150 && !(await ping(host)); attempt++) await Bun.sleep(200);
  if (!(await ping(host))) {
    await stop();
    throw new Error(`the second dockerd did not answer on ${host}`);
  }
  // Images move as a tar stream from engine to engine, as a registry would carry them.
  const load = Bun.spawn(["sh", "-c", `${DOCKER} save "$0" | DOCKER_HOST=${host} ${DOCKER} load -q`, baseImage], { stdout: "ignore", stderr: "pipe" });
  if ((await load.exited) !== 0) {
    await stop();
    throw new Error(`could not load ${baseImage} into ${host}: ${await new Response(load.stderr).text()}`);
  }
  return { host, stop };
}
