// The baseline: one bare isolated `opencode run` against the control server, isolated the way the harness does it
// (packages/openeval/src/opencode/isolated-env.ts, as in packages/control-model/src/opencode-run.session-test.ts):
// private HOME/XDG/TMP, seeded config dir, inline provider config, git workspace, prompt on stdin.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ControlServer } from "@openeval/control-model";
import { resolveOpenCodeBinary } from "../../packages/openeval/src/opencode/opencode-command.ts";
import { now } from "./stats.ts";

export interface BareRunRequest {
  server: ControlServer;
  evalId: string;
  /** The control's name (the model is `control/<name>`). */
  control: string;
  prompt: string;
  /** Parent for the run's own temp dir, removed afterwards. */
  parent: string;
  /** Also time `opencode export` of the session afterwards (default true); the throughput reference skips it. */
  timeExport?: boolean;
}

export interface BareRunResult {
  /** From spawn to exit. */
  ms: number;
  /** The final text event, to check the session really ran. */
  text: string;
  /** `opencode export <session>` run afterwards on the same dirs (not part of `ms`): what the harness adds per session. */
  exportMs: number | null;
}

export async function runBareOpenCode(request: BareRunRequest): Promise<BareRunResult> {
  const root = await mkdtemp(join(request.parent, "bare-"));
  try {
    const workspace = join(root, "workspace");
    for (const dir of ["home", "data", "cache", "state", "tmp", "workspace"])
      await mkdir(join(root, dir), { recursive: true });
    await seedConfigDir(root);
    const env = isolatedEnv(root, workspace, request);
    git(workspace, env, "init", "-q");
    git(workspace, env, "commit", "-q", "--allow-empty", "-m", "init");

    const args = [
      "run",
      "--pure",
      "--format",
      "json",
      "--dir",
      workspace,
      "-m",
      `control/${request.control}`,
      "--title",
      "t",
      "--print-logs",
    ];
    const start = now();
    const child = Bun.spawn([resolveOpenCodeBinary(), ...args], {
      cwd: workspace,
      env,
      stdin: new Blob([request.prompt]),
      stdout: "pipe",
      stderr: "pipe",
      timeout: 120_000,
      killSignal: "SIGKILL",
    });
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    const ms = now() - start;
    if (exitCode !== 0) throw new Error(`bare opencode run exited ${exitCode}: ${stderr.slice(-2000)}`);
    const events = parseEvents(stdout);
    return {
      ms,
      text: lastText(events),
      exportMs: request.timeExport === false ? null : await timeExport(env, workspace, events),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function isolatedEnv(root: string, workspace: string, request: BareRunRequest): Record<string, string> {
  const config = {
    $schema: "https://opencode.ai/config.json",
    snapshot: false,
    share: "disabled",
    autoupdate: false,
    provider: {
      control: {
        npm: "@ai-sdk/openai-compatible",
        name: "Control",
        options: { baseURL: request.server.baseURL(request.evalId), apiKey: "control" },
        models: {
          [request.control]: {
            name: request.control,
            tool_call: true,
            limit: { context: 128000, output: 8192 },
            cost: { input: 0, output: 0 },
          },
        },
      },
    },
  };
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: join(root, "home"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_CACHE_HOME: join(root, "cache"),
    XDG_STATE_HOME: join(root, "state"),
    TMPDIR: join(root, "tmp"),
    PWD: workspace,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
  };
}

/** Pre-seeds the global config dir so OpenCode skips its background `npm install @opencode-ai/plugin`. */
async function seedConfigDir(root: string): Promise<void> {
  const dir = join(root, "config", "opencode");
  await mkdir(join(dir, "node_modules"), { recursive: true });
  const dependencies = { "@opencode-ai/plugin": "*" };
  await writeFile(join(dir, "package.json"), JSON.stringify({ dependencies }));
  await writeFile(
    join(dir, "package-lock.json"),
    JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies } } }),
  );
}

function git(workspace: string, env: Record<string, string>, ...args: string[]): void {
  const result = Bun.spawnSync(["git", "-c", "user.name=control", "-c", "user.email=control@localhost", ...args], {
    cwd: workspace,
    env,
  });
  if (result.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr.toString()}`);
}

interface RunEvent {
  type?: string;
  sessionID?: string;
  part?: { text?: string };
}

function parseEvents(stdout: string): RunEvent[] {
  return stdout
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as RunEvent];
      } catch {
        return []; // not an event line
      }
    });
}

function lastText(events: RunEvent[]): string {
  return (
    events
      .flatMap((event) => (event.type === "text" && typeof event.part?.text === "string" ? [event.part.text] : []))
      .at(-1) ?? ""
  );
}

async function timeExport(env: Record<string, string>, workspace: string, events: RunEvent[]): Promise<number> {
  const sessionID = events.find((event) => event.sessionID)?.sessionID;
  if (!sessionID) throw new Error("the bare run printed no session id");
  const start = now();
  const child = Bun.spawn([resolveOpenCodeBinary(), "export", sessionID], {
    cwd: workspace,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const ms = now() - start;
  if (exitCode !== 0 || !stdout.includes(sessionID))
    throw new Error(`opencode export ${sessionID} failed (exit ${exitCode}): ${stderr.slice(-1000)}`);
  return ms;
}
