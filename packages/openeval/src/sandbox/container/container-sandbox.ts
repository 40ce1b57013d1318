// One container as a sandbox: created from a pinned image id with the spec's limits, engine-managed volumes for its
// folders (never host mounts), the image's non-root user and no host environment; commands run through the exec
// API without a shell; kill and remove act on the whole container. dockerode stays inside this folder.
import { posix } from "node:path";
import type { Duplex, Readable } from "node:stream";
import type Docker from "dockerode";
import { SandboxError } from "../errors.ts";
import { captureRun, StreamDemuxer } from "../output-capture.ts";
import { ownerLabel } from "../owner.ts";
import {
  OWNER_LABEL,
  type CopyOutResult,
  type RunOptions,
  type RunOutcome,
  type Sandbox,
  type SandboxSpec,
  type SandboxUser,
} from "../sandbox.ts";
import { packTar } from "../tar.ts";
import { writeArchive } from "../tree-writer.ts";
import { errorMessage, statusOf, type Engine } from "./engine.ts";
import { ContainerError } from "./errors.ts";

/** The image's user when it names none (or root): `nobody`. */
const FALLBACK_USER: SandboxUser = { uid: 65534, gid: 65534 };
/** The container's own process outlives the sandbox's lifetime by this much, then exits by itself (a crashed harness
 * leaves a stopped container for the reaper, never a running one). */
const SELF_STOP_MARGIN_S = 300;

export async function createContainerSandbox(engine: Engine, spec: SandboxSpec): Promise<Sandbox> {
  if (!spec.image) throw new Error("A container sandbox needs an image id; the caller's policy names one");
  const user = await imageUser(engine, spec.image);
  const network = spec.network ?? { kind: "none" };
  const { limits } = spec;
  const container = await engine.docker
    .createContainer({
      Image: spec.image,
      Cmd: ["sleep", String(Math.ceil(spec.lifetimeMs / 1000) + SELF_STOP_MARGIN_S)],
      // The engine gives a root exec the added capabilities only when the container's own process is root (its
      // `sleep`, which holds nothing else); every other run still defaults to the image's user.
      User: spec.capabilities?.length ? "0:0" : `${user.uid}:${user.gid}`,
      WorkingDir: spec.workdir,
      // Only what the image and the policy set: nothing from the host, so no stray credentials.
      Env: Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${value}`),
      Labels: { ...spec.labels, [OWNER_LABEL]: ownerLabel() },
      NetworkDisabled: network.kind === "none",
      Volumes: Object.fromEntries(spec.folders.map((folder) => [folder, {}])),
      HostConfig: {
        Mounts: [
          ...(spec.volumes ?? []).map((volume) => ({
            Type: "volume" as const,
            Source: volume.name,
            Target: volume.path,
          })),
          // Anonymous, so removed with the container; NoCopy keeps the image's files at that path out of it.
          ...(spec.emptyFolders ?? []).map((path) => ({
            Type: "volume" as const,
            Source: "",
            Target: path,
            VolumeOptions: { NoCopy: true },
          })),
        ],
        NetworkMode: network.kind,
        ReadonlyRootfs: spec.readOnlyRoot ?? false,
        Tmpfs: { "/tmp": `rw,nosuid,nodev,size=${limits.tmpMiB}m,mode=1777` },
        Memory: limits.memoryMiB * 1_048_576,
        MemorySwap: limits.memoryMiB * 1_048_576,
        NanoCpus: Math.round(limits.cpus * 1e9),
        PidsLimit: limits.pids,
        CapDrop: ["ALL"],
        ...(spec.capabilities?.length ? { CapAdd: spec.capabilities } : {}),
        SecurityOpt: ["no-new-privileges"],
        // docker-init reaps what the commands leave behind; Podman's equivalent (catatonit) is often not installed.
        Init: engine.kind === "docker",
        IpcMode: "private",
        LogConfig: { Type: "none", Config: {} },
        // Podman (rootful) otherwise asks for rlimits above this machine kind's hard limits; Docker sets none.
        ...(engine.kind === "podman"
          ? {
              Ulimits: [
                { Name: "nofile", Soft: 20_000, Hard: 20_000 },
                { Name: "nproc", Soft: 20_000, Hard: 20_000 },
              ],
            }
          : {}),
      },
    })
    .catch((error: unknown) => {
      if (statusOf(error) === 404)
        throw new ContainerError(
          { code: "OE_IMAGE_MISSING", address: engine.address, image: spec.image! },
          { cause: error },
        );
      throw new SandboxError(
        "engineRequestFailed",
        { request: "create a container", address: engine.address, reason: errorMessage(error) },
        { cause: error },
      );
    });
  let killed = false;
  const kill = async () => {
    killed = true;
    await killContainer(container);
  };
  try {
    await container.start();
    await ownFolders(container, spec, user);
  } catch (error) {
    await container.remove({ force: true, v: true }).catch(() => {});
    throw new SandboxError(
      "engineRequestFailed",
      { request: "start a container", address: engine.address, reason: errorMessage(error) },
      { cause: error },
    );
  }
  return {
    id: container.id,
    user,
    path: (sandboxPath) => sandboxPath,
    copyIn: async (folder, entries) => {
      if (entries.length === 0) return;
      const archive = packTar(entries, { mtime: Date.now() / 1000 });
      // A Buffer goes with a Content-Length (the probe saw chunked streams misbehave); owners come from the headers.
      await container.putArchive(Buffer.from(archive.buffer, archive.byteOffset, archive.length), { path: folder });
    },
    copyOut: (path, target, { maxBytes }) => copyOut(container, path, target, maxBytes),
    run: (argv, options) => execCommand(container, user, spec, argv, options, { kill, killed: () => killed }),
    kill,
    remove: async () => {
      await container.remove({ force: true, v: true }).catch((error: unknown) => {
        if (statusOf(error) !== 404) throw error;
      });
    },
  };
}

/** Runs one argv (no shell) until it exits or the deadline passes; past it the container is killed. */
async function execCommand(
  container: Docker.Container,
  user: SandboxUser,
  spec: SandboxSpec,
  argv: string[],
  options: RunOptions,
  state: { kill: () => Promise<void>; killed: () => boolean },
): Promise<RunOutcome> {
  const { stdout, stderr, outcome } = captureRun(options);
  const exec = await container.exec({
    Cmd: argv,
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: options.stdin !== undefined,
    Tty: false,
    WorkingDir: options.cwd ?? spec.workdir,
    User: `${(options.user ?? user).uid}:${(options.user ?? user).gid}`,
    Env: Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`),
  });
  const stream = (await exec.start({ hijack: true, stdin: options.stdin !== undefined })) as unknown as Duplex;
  const demuxer = new StreamDemuxer(stdout, stderr);
  stream.on("data", (chunk: Uint8Array) => demuxer.push(chunk));
  const ended = new Promise<"ended">((resolve) => {
    stream.once("end", () => resolve("ended"));
    stream.once("close", () => resolve("ended"));
    stream.once("error", () => resolve("ended"));
  });
  // Half-closing the hijacked connection closes the command's stdin.
  if (options.stdin instanceof Uint8Array) stream.end(Buffer.from(options.stdin));
  else if (options.stdin) void writeInput(options.stdin, stream);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">(
    (resolve) => (timer = setTimeout(() => resolve("expired"), Math.max(0, options.deadline - Date.now()))),
  );
  const result = await Promise.race([ended, expired]);
  clearTimeout(timer);
  if (result === "expired") {
    // The exec API cannot kill one command; the deadline takes the whole container (the folders stay readable).
    await state.kill();
    stream.destroy();
    return outcome(null, true);
  }
  const info = await exitOf(exec);
  return outcome(
    info.killed || state.killed() || (info.exitCode === 137 && (await containerStopping(container)))
      ? null
      : info.exitCode,
    false,
  );
}

/** Streams a command's input as it comes, never ahead of the connection (it waits for drain), then half-closes. */
async function writeInput(input: ReadableStream<Uint8Array>, stream: Duplex): Promise<void> {
  const reader = input.getReader();
  // Closed when the command has exited or the run ended it; the input is then cancelled.
  const closed = new Promise<null>((resolve) => stream.once("close", () => resolve(null)));
  stream.on("error", () => {});
  const settled = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        stream.off("drain", done).off("close", done);
        resolve();
      };
      stream.on("drain", done).on("close", done);
    });
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), closed]);
      if (read === null || read.done || stream.destroyed) break;
      if (!stream.write(read.value)) await settled();
    }
    if (!stream.destroyed) stream.end();
  } catch {
    // The input failed: the command's stdin closes with the connection.
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function exitOf(exec: Docker.Exec): Promise<{ exitCode: number | null; killed: boolean }> {
  // The stream can end a moment before the engine records the exit code.
  for (let attempt = 0; attempt < 50; attempt++) {
    const info = await exec.inspect().catch(() => null);
    if (info === null) return { exitCode: null, killed: true };
    if (!info.Running && info.ExitCode !== null) return { exitCode: info.ExitCode, killed: false };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { exitCode: null, killed: true };
}

/**
 * An exec cannot outlive its container, so a SIGKILLed command (137) whose container stops with it was killed from
 * outside (a reap); one in a container that keeps running was killed inside it (the memory cgroup, `kill -9`).
 */
async function containerStopping(container: Docker.Container): Promise<boolean> {
  for (let attempt = 0; attempt < 25; attempt++) {
    const info = await container.inspect().catch(() => null);
    if (info === null || !info.State.Running) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/**
 * A volume starts as the image's folder (owner included) or, when the image has none, root-owned: the sandbox's
 * user must be able to write it. The engine applies a folder's own tar entry only from its parent (a `./` entry is
 * skipped), and a read-only root refuses that, so with a read-only root the image must provide the folders.
 */
async function ownFolders(container: Docker.Container, spec: SandboxSpec, user: SandboxUser): Promise<void> {
  if (spec.readOnlyRoot) return;
  for (const folder of spec.folders) {
    const archive = packTar([{ type: "directory", path: posix.basename(folder), mode: 0o755, ...user }], {
      mtime: Date.now() / 1000,
    });
    await container.putArchive(Buffer.from(archive.buffer, archive.byteOffset, archive.length), {
      path: posix.dirname(folder),
    });
  }
}

async function killContainer(container: Docker.Container): Promise<void> {
  await container.kill({ signal: "SIGKILL" }).catch((error: unknown) => {
    if (statusOf(error) !== 409 && statusOf(error) !== 404) throw error;
  });
}

/** The engine's archive streams straight to disk: a file of any size costs memory for one chunk at a time. */
async function copyOut(
  container: Docker.Container,
  path: string,
  target: string,
  maxBytes: number,
): Promise<CopyOutResult> {
  let response: Readable & { headers?: Record<string, string | undefined> };
  try {
    response = (await container.getArchive({ path })) as unknown as typeof response;
  } catch (error) {
    if (statusOf(error) === 404) return { kind: "missing" };
    throw error;
  }
  // The engine states the size before sending anything: refuse early rather than download a huge file.
  const stat = parseStat(response.headers?.["x-docker-container-path-stat"]);
  const directory = stat ? isDirectory(stat.mode) : false;
  if (stat && !directory && stat.size > maxBytes)
    return refuse(response, { kind: "over-limit", bytes: stat.size, directory });
  try {
    return await writeArchive(response, target, maxBytes, directory);
  } finally {
    response.destroy();
  }
}

function refuse(response: Readable, result: CopyOutResult): CopyOutResult {
  response.destroy();
  return result;
}

function parseStat(header: string | undefined): { size: number; mode: number } | null {
  if (!header) return null;
  try {
    const stat = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { size?: number; mode?: number };
    return typeof stat.size === "number" && typeof stat.mode === "number" ? { size: stat.size, mode: stat.mode } : null;
  } catch {
    return null;
  }
}

/** Go's os.ModeDir, as the engine encodes the mode. */
function isDirectory(mode: number): boolean {
  return mode >= 2 ** 31;
}

async function imageUser(engine: Engine, imageId: string): Promise<SandboxUser> {
  let user: string;
  try {
    user = (await engine.docker.getImage(imageId).inspect()).Config?.User ?? "";
  } catch (error) {
    if (statusOf(error) === 404)
      throw new ContainerError({ code: "OE_IMAGE_MISSING", address: engine.address, image: imageId }, { cause: error });
    throw new SandboxError(
      "engineRequestFailed",
      { request: `inspect the image ${imageId}`, address: engine.address, reason: errorMessage(error) },
      { cause: error },
    );
  }
  const match = /^(\d+)(?::(\d+))?$/.exec(user);
  if (!match || match[1] === "0") return FALLBACK_USER;
  return { uid: Number(match[1]), gid: Number(match[2] ?? match[1]) };
}
