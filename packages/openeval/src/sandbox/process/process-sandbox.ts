// The `process` engine: a sandbox is a folder on this machine (its sandbox paths mapped under a private root) and
// commands run as the current user, each confined so the whole tree dies together. It is isolation, not a
// security boundary: memory, CPU, network and the rest of the filesystem are not confined (see `confines`).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toSafeRelativePath } from "../../util/relative-path.ts";
import { captureRun, pumpStream } from "../output-capture.ts";
import { hasLabels, isOrphan, ownerLabel } from "../owner.ts";
import { SandboxError } from "../errors.ts";
import { confineCommand, killProcessTree } from "../process-tree.ts";
import { OWNER_LABEL, type ReapOptions, type RunOptions, type RunOutcome, type Sandbox, type SandboxEngine, type SandboxSpec } from "../sandbox.ts";
import { copyTree, writeEntries } from "./process-files.ts";

/** In every process of a sandbox's environment: the kill (and a later reap) finds strays by it. */
export const SANDBOX_MARKER = "OPENEVAL_SANDBOX";
const FOLDER_PREFIX = "openeval-sandbox-";
const META_FILE = "sandbox.json";
/** What commands find on PATH when the policy gives none (as a container image would set it). */
const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

export interface ProcessEngineOptions {
  /** Where sandbox folders are made (and looked for when reaping); default the system temp folder. */
  directory?: string;
  /** Default true: a PID namespace when this machine allows it; false forces the /proc walk. */
  pidNamespace?: boolean;
}

export function createProcessEngine(options: ProcessEngineOptions = {}): SandboxEngine {
  const directory = options.directory ?? tmpdir();
  return {
    name: "process",
    address: "this machine (process engine)",
    confines: { resources: false, network: false, filesystem: false },
    create: (spec) => createProcessSandbox(directory, spec, options.pidNamespace ?? true),
    list: async (labels) => (await findSandboxes(directory, labels)).map((found) => found.id),
    reap: (labels, reapOptions) => reapProcessSandboxes(directory, labels, reapOptions),
  };
}

async function createProcessSandbox(directory: string, spec: SandboxSpec, pidNamespace: boolean): Promise<Sandbox> {
  if (spec.volumes?.length) throw new SandboxError("OE_UNKNOWN_ENGINE", "Shared volumes are a container engine feature; the process engine shares this machine's folders anyway");
  const id = `ps_${randomBytes(8).toString("hex")}`;
  const folder = join(directory, `${FOLDER_PREFIX}${id}`);
  const root = join(folder, "root");
  const path = (sandboxPath: string) => {
    const relative = sandboxPath.replace(/^\/+/, "");
    return relative === "" ? root : join(root, toSafeRelativePath(relative));
  };
  await mkdir(root, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, META_FILE), JSON.stringify({ id, labels: { ...spec.labels, [OWNER_LABEL]: ownerLabel() } }));
  for (const sandboxFolder of [...spec.folders, "/tmp", spec.workdir]) await mkdir(path(sandboxFolder), { recursive: true });
  const marker = `${SANDBOX_MARKER}=${id}`;
  const lifetime = setTimeout(() => void killProcessTree({ marker }), spec.lifetimeMs);
  lifetime.unref();
  const kill = async () => void (await killProcessTree({ marker }));
  return {
    id,
    user: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
    path,
    copyIn: (sandboxFolder, entries) => writeEntries(path(sandboxFolder), entries),
    copyOut: (sandboxPath, target, { maxBytes }) => copyTree(path(sandboxPath), target, maxBytes),
    run: (argv, runOptions) => runProcess({ argv, runOptions, spec, path, marker, pidNamespace, kill, tmp: path("/tmp") }),
    kill,
    remove: async () => {
      clearTimeout(lifetime);
      await kill();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

interface ProcessRun {
  argv: string[];
  runOptions: RunOptions;
  spec: SandboxSpec;
  path: (sandboxPath: string) => string;
  marker: string;
  pidNamespace: boolean;
  kill: () => Promise<void>;
  tmp: string;
}

async function runProcess(run: ProcessRun): Promise<RunOutcome> {
  const { runOptions } = run;
  // One user is all this engine has: a command that needs another would silently run with more rights than asked.
  if (runOptions.user && (runOptions.user.uid !== process.getuid?.() || runOptions.user.gid !== process.getgid?.())) {
    throw new SandboxError("OE_USER_UNSUPPORTED", `The process engine runs commands only as this user, not as ${runOptions.user.uid}:${runOptions.user.gid}; use the container engine for that`);
  }
  const env = { PATH: DEFAULT_PATH, TMPDIR: run.tmp, ...run.spec.env, ...runOptions.env, [run.marker.split("=")[0]!]: run.marker.split("=")[1]! };
  const { stdout, stderr, outcome } = captureRun(runOptions);
  // Resolved here, against the sandbox's PATH: a missing program is exit 127, as a shell (or an engine) says it.
  const program = run.argv[0] === undefined ? null : Bun.which(run.argv[0], { PATH: env.PATH });
  if (program === null) {
    stderr.write(new TextEncoder().encode(`${run.argv[0] ?? "(empty argv)"}: command not found\n`));
    return outcome(127, false);
  }
  const command = await confineCommand([program, ...run.argv.slice(1)], { preferNamespace: run.pidNamespace });
  const child = Bun.spawn(command.argv, { cwd: run.path(runOptions.cwd ?? run.spec.workdir), env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  try {
    if (runOptions.stdin) child.stdin.write(runOptions.stdin);
    void Promise.resolve(child.stdin.end()).catch(() => {});
  } catch {
    // It exited before reading its input; the exit code says why.
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void run.kill();
  }, Math.max(0, runOptions.deadline - Date.now()));
  const pumped = Promise.all([pumpStream(child.stdout, stdout), pumpStream(child.stderr, stderr)]);
  await child.exited;
  clearTimeout(timer);
  // Whatever the command detached shares the sandbox's marker; it must not outlive the run.
  await killProcessTree({ marker: run.marker });
  await pumped;
  return outcome(timedOut || child.signalCode !== null ? null : child.exitCode, timedOut);
}

interface FoundSandbox {
  id: string;
  folder: string;
  owner: string | undefined;
}

async function findSandboxes(directory: string, labels: Record<string, string>): Promise<FoundSandbox[]> {
  if (!existsSync(directory)) return [];
  const found: FoundSandbox[] = [];
  for (const name of await readdir(directory)) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const folder = join(directory, name);
    try {
      const meta = JSON.parse(await readFile(join(folder, META_FILE), "utf8")) as { id: string; labels: Record<string, string> };
      if (hasLabels(meta.labels, labels)) found.push({ id: meta.id, folder, owner: meta.labels[OWNER_LABEL] });
    } catch {
      // Not one of ours, or being created or removed right now.
    }
  }
  return found;
}

async function reapProcessSandboxes(directory: string, labels: Record<string, string>, options: ReapOptions = {}): Promise<string[]> {
  const removed: string[] = [];
  for (const found of await findSandboxes(directory, labels)) {
    if (options.orphansOnly && !isOrphan(found.owner)) continue;
    await killProcessTree({ marker: `${SANDBOX_MARKER}=${found.id}` });
    await rm(found.folder, { recursive: true, force: true });
    removed.push(found.id);
  }
  return removed;
}
