// The real thing: OpenCode 1.18.33 (`opencode run`) driven by a control, isolated as the harness isolates it
// (packages/openeval/src/opencode/isolated-env.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ControlFile } from "./schema.ts";
import { startControlServer, type ControlServer } from "./server.ts";

const OPENCODE = fileURLToPath(new URL("../../../node_modules/.bin/opencode", import.meta.url));
const EVAL_ID = "write-notes";
const FINAL_TEXT = "Done: notes/hello.txt is written.";

const writer: ControlFile = {
  turns: [
    {
      text: "Writing the notes file.",
      tools: [{ name: "write", input: { filePath: "notes/hello.txt", content: "hello from a control\n" } }],
      usage: { input: 1000, output: 20 },
    },
    { text: FINAL_TEXT },
  ],
};

let server: ControlServer;
let root: string;
beforeAll(async () => {
  server = await startControlServer({ controls: { [EVAL_ID]: { writer } } });
  root = await mkdtemp(join(tmpdir(), "control-opencode-"));
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** env -i style: only PATH, the per-run HOME, XDG_* dirs and TMPDIR, the inline config and the OPENCODE_DISABLE_* flags. */
function isolatedEnv(workspace: string): Record<string, string> {
  const config = {
    $schema: "https://opencode.ai/config.json",
    snapshot: false,
    share: "disabled",
    autoupdate: false,
    provider: {
      control: {
        npm: "@ai-sdk/openai-compatible",
        name: "Control",
        options: { baseURL: server.baseURL(EVAL_ID), apiKey: "control" },
        models: {
          writer: {
            name: "writer",
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
async function seedConfigDir(): Promise<void> {
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
  expect(result.exitCode, result.stderr.toString()).toBe(0);
}

it("drives the real OpenCode agent loop: the write tool creates the file, then the final text arrives", async () => {
  const workspace = join(root, "workspace");
  for (const dir of ["home", "data", "cache", "state", "tmp", "workspace"])
    await mkdir(join(root, dir), { recursive: true });
  await seedConfigDir();
  const env = isolatedEnv(workspace);
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
    "control/writer",
    "--title",
    "t",
    "--print-logs",
  ];
  const proc = Bun.spawn([OPENCODE, ...args], {
    cwd: workspace,
    env,
    stdin: new Blob(["Please write the notes file."]),
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(exitCode, stderr.slice(-3000)).toBe(0);

  expect(await readFile(join(workspace, "notes", "hello.txt"), "utf8")).toBe("hello from a control\n");
  const events = stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  expect(events.filter((e) => e.type === "text").map((e) => e.part.text)).toEqual([
    "Writing the notes file.",
    FINAL_TEXT,
  ]);
  const toolUse = events.find((e) => e.type === "tool_use");
  expect(toolUse?.part).toMatchObject({ tool: "write", state: { status: "completed" } });

  // OpenCode records declared usage as is, and zeros (no `total`) for a step whose stream carried no usage.
  const tokens = events.filter((e) => e.type === "step_finish").map((e) => e.part.tokens);
  expect(tokens).toMatchObject([
    { total: 1020, input: 1000, output: 20 },
    { input: 0, output: 0 },
  ]);

  // One session, two model steps (the title request is skipped by --title), selected by the step rule.
  const sessionID = events[0]?.sessionID;
  expect(
    server.requests.map(({ sessionID, step, hadTools, status }) => ({ sessionID, step, hadTools, status })),
  ).toEqual([
    { sessionID, step: 0, hadTools: true, status: 200 },
    { sessionID, step: 1, hadTools: true, status: 200 },
  ]);
}, 90_000);
