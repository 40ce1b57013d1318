// One locked-down verification container: created from the pinned image id with no network, a read-only root,
// engine-managed volumes for /workspace and /verification (never host mounts), a non-root user, memory/CPU/pids
// limits and no host environment; commands run in it one by one through the exec API, without a shell.
import { hostname } from "node:os";
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import { errorMessage, statusOf, type Engine } from "./engine.ts";
import { BUILD_IMAGE_COMMAND, VerificationError } from "./errors.ts";
import type { BoundedBuffer } from "./output-capture.ts";
import { StreamDemuxer } from "./output-capture.ts";
import type { Owner } from "./snapshot-archive.ts";
import type { ParsedVerificationLimits } from "./schema.ts";
import { packTar, type TarEntry } from "./tar.ts";

export const WORKSPACE = "/workspace";
export const CHECK_FILES = "/verification";
/** The image's user when it names none (or root): `nobody`. */
const FALLBACK_USER: Owner = { uid: 65534, gid: 65534 };
/** The container's own process outlives the deadline by this much, then exits by itself (a crashed harness leaves a
 * stopped container for the reaper, never a running one). */
const SELF_STOP_MARGIN_S = 300;

export const CONTAINER_LABELS = {
  verification: "openeval.verification",
  judgeRun: "openeval.judge-run",
  owner: "openeval.owner",
} as const;

export interface Sandbox {
  container: Docker.Container;
  user: Owner;
}

export async function createSandbox(engine: Engine, options: { imageId: string; limits: ParsedVerificationLimits; timeoutMs: number; labels: Record<string, string> }): Promise<Sandbox> {
  const user = await imageUser(engine, options.imageId);
  const { limits } = options;
  const container = await engine.docker
    .createContainer({
      Image: options.imageId,
      Cmd: ["sleep", String(Math.ceil(options.timeoutMs / 1000) + SELF_STOP_MARGIN_S)],
      User: `${user.uid}:${user.gid}`,
      WorkingDir: WORKSPACE,
      // Only what the image sets (PATH, HOME, LANG…): nothing from the host, so no credentials.
      Env: [],
      Labels: { ...options.labels, [CONTAINER_LABELS.owner]: `${hostname()}/${process.pid}` },
      NetworkDisabled: true,
      Volumes: { [WORKSPACE]: {}, [CHECK_FILES]: {} },
      HostConfig: {
        NetworkMode: "none",
        ReadonlyRootfs: true,
        Tmpfs: { "/tmp": `rw,nosuid,nodev,size=${limits.tmpMiB}m,mode=1777` },
        Memory: limits.memoryMiB * 1_048_576,
        MemorySwap: limits.memoryMiB * 1_048_576,
        NanoCpus: Math.round(limits.cpus * 1e9),
        PidsLimit: limits.pids,
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges"],
        // docker-init reaps what the commands leave behind; Podman's equivalent (catatonit) is often not installed.
        Init: engine.kind === "docker",
        IpcMode: "private",
        LogConfig: { Type: "none", Config: {} },
        // Podman (rootful) otherwise asks for rlimits above this machine kind's hard limits; Docker sets none.
        ...(engine.kind === "podman" ? { Ulimits: [{ Name: "nofile", Soft: 20_000, Hard: 20_000 }, { Name: "nproc", Soft: 20_000, Hard: 20_000 }] } : {}),
      },
    })
    .catch((error: unknown) => {
      if (statusOf(error) === 404) {
        throw new VerificationError("IMAGE_MISSING", `The verification image ${options.imageId} is not on ${engine.address}; build it with \`${BUILD_IMAGE_COMMAND}\``, { cause: error });
      }
      throw new VerificationError("ENGINE_FAILED", `Could not create a verification container: ${errorMessage(error)}`, { cause: error });
    });
  return { container, user };
}

/** Copies entries into a volume before start (the read-only root accepts nothing else). */
export async function copyInto(sandbox: Sandbox, path: string, entries: TarEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const archive = packTar(entries, { mtime: Date.now() / 1000 });
  // A Buffer goes with a Content-Length (the probe saw chunked streams misbehave); owners come from the headers.
  await sandbox.container.putArchive(Buffer.from(archive.buffer, archive.byteOffset, archive.length), { path });
}

export interface ExecOutcome {
  exitCode: number | null;
  elapsedMs: number;
  timedOut: boolean;
}

/** Runs one argv (no shell) and waits for it until `deadline` (epoch ms); output goes to the bounded buffers. */
export async function execCommand(sandbox: Sandbox, argv: string[], options: { cwd: string; deadline: number; stdout: BoundedBuffer; stderr: BoundedBuffer }): Promise<ExecOutcome> {
  const started = performance.now();
  const exec = await sandbox.container.exec({ Cmd: argv, AttachStdout: true, AttachStderr: true, AttachStdin: false, Tty: false, WorkingDir: options.cwd, User: `${sandbox.user.uid}:${sandbox.user.gid}` });
  const stream = (await exec.start({ hijack: true, stdin: false })) as unknown as Readable;
  const demuxer = new StreamDemuxer(options.stdout, options.stderr);
  stream.on("data", (chunk: Uint8Array) => demuxer.push(chunk));
  const ended = new Promise<"ended">((resolve) => {
    stream.once("end", () => resolve("ended"));
    stream.once("close", () => resolve("ended"));
    stream.once("error", () => resolve("ended"));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">((resolve) => (timer = setTimeout(() => resolve("expired"), Math.max(0, options.deadline - Date.now()))));
  const outcome = await Promise.race([ended, expired]);
  clearTimeout(timer);
  const elapsedMs = Math.round(performance.now() - started);
  if (outcome === "expired") {
    stream.destroy();
    return { exitCode: null, elapsedMs, timedOut: true };
  }
  return { exitCode: await exitCodeOf(exec), elapsedMs, timedOut: false };
}

/** Kills every process of the container (its own and the commands'); the volumes stay readable until removal. */
export async function killSandbox(sandbox: Sandbox): Promise<void> {
  await sandbox.container.kill({ signal: "SIGKILL" }).catch((error: unknown) => {
    if (statusOf(error) !== 409 && statusOf(error) !== 404) throw error;
  });
}

export async function removeSandbox(sandbox: Sandbox): Promise<void> {
  await sandbox.container.remove({ force: true, v: true }).catch((error: unknown) => {
    if (statusOf(error) !== 404) throw error;
  });
}

async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  // The stream can end a moment before the engine records the exit code.
  for (let attempt = 0; attempt < 50; attempt++) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

async function imageUser(engine: Engine, imageId: string): Promise<Owner> {
  let user: string;
  try {
    user = (await engine.docker.getImage(imageId).inspect()).Config?.User ?? "";
  } catch (error) {
    if (statusOf(error) === 404) {
      throw new VerificationError("IMAGE_MISSING", `The verification image ${imageId} is not on ${engine.address}; build it with \`${BUILD_IMAGE_COMMAND}\``, { cause: error });
    }
    throw new VerificationError("ENGINE_FAILED", `Could not inspect the verification image ${imageId}: ${errorMessage(error)}`, { cause: error });
  }
  const match = /^(\d+)(?::(\d+))?$/.exec(user);
  if (!match || match[1] === "0") return FALLBACK_USER;
  return { uid: Number(match[1]), gid: Number(match[2] ?? match[1]) };
}
