// The host side of a test engine pool: network namespaces, veth pairs on private /30s, the cgroup that holds an
// engine and everything it starts, mounts and processes below its folder — made here and removed here.
import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { processesMatching } from "./processes.ts";

/** Runs a host command; throws with its output when it fails. */
export function runHost(command: string[]): string {
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  if (result.exitCode !== 0)
    throw new Error(`\`${command.join(" ")}\` failed (${result.exitCode}): ${result.stderr.toString().trim()}`);
  return result.stdout.toString();
}

/** Runs a teardown command whose failure only means "already gone". */
function tryHost(command: string[]): boolean {
  return Bun.spawnSync(command, { stdout: "ignore", stderr: "ignore", stdin: "ignore" }).exitCode === 0;
}

function toNumber(address: string): number {
  return address.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

function rangeOf(cidr: string): [number, number] {
  const [address = "", bits = "32"] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(toNumber(address) / size) * size;
  return [start, start + size - 1];
}

/** Every IPv4 range the machine already routes to or holds an address in. */
function rangesInUse(): [number, number][] {
  const routes = JSON.parse(runHost(["ip", "-j", "-4", "route", "show", "table", "all"])) as { dst: string }[];
  const links = JSON.parse(runHost(["ip", "-j", "-4", "addr"])) as {
    addr_info: { local: string; prefixlen: number }[];
  }[];
  return [
    ...routes.filter((route) => route.dst !== "default").map((route) => rangeOf(route.dst)),
    ...links.flatMap((link) => link.addr_info.map((info) => rangeOf(`${info.local}/${info.prefixlen}`))),
  ];
}

/** A 10.x.0.0/16 that overlaps nothing on the machine; engine n gets 10.x.n.0/30 inside it. */
export function pickPoolNetwork(): number {
  const inUse = rangesInUse();
  for (let attempt = 0; attempt < 200; attempt++) {
    const octet = 16 + Math.floor(Math.random() * 224);
    const [start, end] = rangeOf(`10.${octet}.0.0/16`);
    if (!inUse.some(([from, to]) => from <= end && start <= to)) return octet;
  }
  throw new Error("no free 10.x.0.0/16 for a test engine pool: every candidate overlaps a route or address");
}

export interface EngineLink {
  namespace: string;
  hostVeth: string;
  engineVeth: string;
  hostAddress: string;
  address: string;
}

/** Makes the namespace, a veth pair between it and the root namespace, and `lo` inside it. */
export function createEngineLink(link: EngineLink): void {
  const inside = ["ip", "-n", link.namespace];
  runHost(["ip", "netns", "add", link.namespace]);
  runHost([
    "ip",
    "link",
    "add",
    link.hostVeth,
    "type",
    "veth",
    "peer",
    "name",
    link.engineVeth,
    "netns",
    link.namespace,
  ]);
  runHost(["ip", "addr", "add", `${link.hostAddress}/30`, "dev", link.hostVeth]);
  runHost(["ip", "link", "set", link.hostVeth, "up"]);
  runHost([...inside, "addr", "add", `${link.address}/30`, "dev", link.engineVeth]);
  runHost([...inside, "link", "set", link.engineVeth, "up"]);
  runHost([...inside, "link", "set", "lo", "up"]);
}

/** Deletes the namespace and waits until its veth is gone from the root namespace (the kernel frees it lazily). */
export async function removeEngineLink(link: EngineLink): Promise<void> {
  tryHost(["ip", "netns", "delete", link.namespace]);
  for (let attempt = 0; attempt < 100 && tryHost(["ip", "link", "show", link.hostVeth]); attempt++) {
    // Deleting one end of a veth deletes both; needed when something still holds the namespace open.
    if (attempt === 20) tryHost(["ip", "link", "delete", link.hostVeth]);
    await Bun.sleep(100);
  }
  if (tryHost(["ip", "link", "show", link.hostVeth])) throw new Error(`veth ${link.hostVeth} is still there`);
}

// An engine and everything it starts live in one cgroup: dockerd is put in `<name>/engine` before it execs, so its
// containerd, shims and helpers inherit it; containers go to `<name>/<id>` through --cgroup-parent. Killing what the
// cgroup holds reaches every process even after a kill -9 orphaned the shims and their containers, whatever their
// command lines say and however deep the process tree. The pids hierarchy (cgroup v1) or the unified one (v2) tracks it.
const TRACKING_HIERARCHY = existsSync("/sys/fs/cgroup/pids/cgroup.procs") ? "/sys/fs/cgroup/pids" : "/sys/fs/cgroup";

/** The cgroup.procs file dockerd writes itself into before it starts. */
export function engineCgroupProcs(cgroup: string): string {
  const folder = join(TRACKING_HIERARCHY, cgroup, "engine");
  runHost(["mkdir", "-p", folder]);
  return join(folder, "cgroup.procs");
}

function cgroupTree(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const children = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return [...children.flatMap((child) => cgroupTree(join(folder, child.name))), folder];
}

function pidsIn(folder: string): number[] {
  return cgroupTree(folder).flatMap((cgroup) => {
    try {
      return readFileSync(join(cgroup, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** SIGKILLs every process in `folders` and their child cgroups until none is left. */
async function emptyCgroups(folders: string[]): Promise<void> {
  const pids = () => folders.flatMap(pidsIn);
  for (let attempt = 0; attempt < 100 && pids().length > 0; attempt++) {
    killAll(pids());
    await Bun.sleep(100);
  }
}

/** SIGKILLs the engine's containers, so that dockerd then stops at once instead of waiting to stop each of them. */
export async function killEngineContainers(cgroup: string): Promise<void> {
  const tracked = join(TRACKING_HIERARCHY, cgroup);
  if (!existsSync(tracked)) return;
  const containers = readdirSync(tracked, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && entry.name !== "engine",
  );
  await emptyCgroups(containers.map((entry) => join(tracked, entry.name)));
}

/** SIGKILLs every process of the engine's cgroup until it is empty, then removes its cgroups in every hierarchy. */
export async function removeEngineCgroup(cgroup: string): Promise<void> {
  await emptyCgroups([join(TRACKING_HIERARCHY, cgroup)]);
  const hierarchies = [
    "/sys/fs/cgroup",
    ...readdirSync("/sys/fs/cgroup").map((entry) => join("/sys/fs/cgroup", entry)),
  ];
  for (const folder of hierarchies.flatMap((hierarchy) => cgroupTree(join(hierarchy, cgroup)))) {
    for (let attempt = 0; existsSync(folder); attempt++) {
      try {
        rmdirSync(folder);
      } catch (error) {
        // Busy for a moment after its last process died.
        if (attempt >= 50) throw new Error(`could not remove cgroup ${folder}`, { cause: error });
        await Bun.sleep(100);
      }
    }
  }
}

/** SIGKILLs every process whose command line mentions `root`, until none is left. */
export async function killProcessesMentioning(root: string): Promise<void> {
  for (let attempt = 0; attempt < 50 && processesMatching(root).length > 0; attempt++) {
    killAll(processesMatching(root));
    await Bun.sleep(100);
  }
}

export function mountsBelow(root: string): string[] {
  return runHost(["findmnt", "-rn", "-o", "TARGET"])
    .split("\n")
    .filter((target) => target === root || target.startsWith(`${root}/`));
}

/** Unmounts everything below `root`, deepest first (dockerd's exec-root/netns/default, overlays in the data root). */
export function unmountBelow(root: string): void {
  for (let attempt = 0; attempt < 10; attempt++) {
    const mounts = mountsBelow(root).sort((a, b) => b.length - a.length);
    if (mounts.length === 0) return;
    for (const mount of mounts) tryHost(["umount", mount]) || tryHost(["umount", "-l", mount]);
  }
  if (mountsBelow(root).length > 0) throw new Error(`still mounted below ${root}: ${mountsBelow(root).join(", ")}`);
}
