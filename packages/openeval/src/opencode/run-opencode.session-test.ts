// End to end: real OpenCode 1.18.33 runs driven by the control model (packages/control-model). One OpenCode process
// at a time (2 cores); each run takes a few seconds.
import { Database } from "bun:sqlite";
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startControlServer, type ControlServer } from "../../../control-model/src/index.ts";
import { sha256 } from "../util/hash.ts";
import { archiveDatabase } from "./archive-database.ts";
import { exportSessions } from "./export-sessions.ts";
import { exportWithOpenCode } from "../../../../test/helpers/native-export.ts";
import { prepareIsolation } from "./isolated-env.ts";
import { findSleeps } from "../sandbox/fixtures/process-tree.ts";
import { detectPidNamespace } from "../sandbox/process-tree.ts";
import {
  type ControlFile,
  controlConfig,
  createGitWorkspace,
  startRecordingProxy,
  systemText,
} from "./fixtures/opencode-run.ts";
import type { ProviderSignal } from "./provider-signals.ts";
import { type OpenCodeOutcome, type OpenCodeRequest, runOpenCode } from "./run-opencode.ts";

const EVAL_ID = "candidate-stage";
const PLANTED_ANTHROPIC = "sk-ant-planted-5b1c9e7a2d4f6081";
const PLANTED_AUTH = "sk-ant-auth-planted-77e0c3d9a1b2";
const PLANTED_OPENAI = "sk-planted-openai-3e9d8c7b6a5f4e3d";

const controls: Record<string, ControlFile> = {
  worker: {
    turns: [
      // Reasoning past 64 KiB: the session's export is too (OpenCode's export to a pipe stopped there).
      {
        reasoning: `Plan: a.txt via bash, b.txt via write. ${"Think. ".repeat(10_000)}`,
        text: "Creating files.",
        tools: [{ name: "bash", input: { command: "echo hi > a.txt" } }],
      },
      { tools: [{ name: "write", input: { filePath: "b.txt", content: "bee\n" } }] },
      { text: "All done." },
    ],
  },
  sleeper: { turns: [{ tools: [{ name: "bash", input: { command: "sleep 30 & sleep 30" } }] }] },
  broken: { turns: [{ error: { status: 500, message: "control says no" } }] },
  // A provider's transient failures: step 0's first attempt and step 1's first two are answered 503/429.
  flaky: {
    turns: [
      { failFirst: { times: 1, status: 503 }, tools: [{ name: "bash", input: { command: "echo ok > ok.txt" } }] },
      { failFirst: { times: 2, status: 429 }, text: "Done." },
    ],
  },
  leaker: {
    turns: [
      {
        tools: [
          {
            name: "bash",
            input: {
              command: `echo "$ANTHROPIC_API_KEY"; cat "$XDG_DATA_HOME/opencode/auth.json"; echo ${PLANTED_OPENAI}; env`,
            },
          },
        ],
      },
      { text: `The keys are ${PLANTED_ANTHROPIC} and ${PLANTED_OPENAI}.` },
    ],
  },
  // (100000·$1 + 1000·$2) / 1e6 = $0.102 per step, forever.
  spender: {
    turns: [{ tools: [{ name: "bash", input: { command: "echo spend" } }], usage: { input: 100000, output: 1000 } }],
  },
  looper: { turns: [{ tools: [{ name: "bash", input: { command: "echo again" } }] }] },
  // OpenCode's file tools outside the workspace: a sibling of it, and OpenCode's own data folder (its database).
  outsider: {
    turns: [
      { tools: [{ name: "read", input: { filePath: "../outside.txt" } }] },
      { tools: [{ name: "glob", input: { pattern: "*", path: "../../scratch/data/opencode" } }] },
      { text: "done" },
    ],
  },
};

let server: ControlServer;
let root: string;
beforeAll(async () => {
  server = await startControlServer({ controls: { [EVAL_ID]: controls } });
  root = await mkdtemp(join(tmpdir(), "openeval-candidate-"));
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

interface RunResult {
  outcome: OpenCodeOutcome;
  events: unknown[];
  request: OpenCodeRequest;
  dir: string;
}

async function runControl(name: string, control: string, overrides: Partial<OpenCodeRequest> = {}): Promise<RunResult> {
  const dir = join(root, name);
  const workspace = overrides.workspace ?? (await createGitWorkspace(join(dir, "parent", "ws")));
  const events: unknown[] = [];
  const request: OpenCodeRequest = {
    scratchDir: join(dir, "scratch"),
    workspace,
    prompt: "Do the task.",
    model: `control/${control}`,
    config: controlConfig(server.baseURL(EVAL_ID), Object.keys(controls)),
    credentials: { env: {}, auth: null },
    timeoutMs: 30_000,
    eventsFile: join(dir, "out", "events.jsonl"),
    stderrFile: join(dir, "out", "stderr.log"),
    secrets: [],
    ...overrides,
    onEvent: (event) => {
      events.push(event);
      overrides.onEvent?.(event);
    },
  };
  const outcome = await runOpenCode(request);
  return { outcome, events, request, dir };
}

function typesOf(events: unknown[]): string[] {
  return events.map((event) => (event as { type: string }).type);
}

describe("a control that runs bash and write, then answers", () => {
  const PROMPT = 'Create a.txt and b.txt.\nKeep "quotes" and\ttabs exactly.';
  let result: RunResult;
  let proxy: ReturnType<typeof startRecordingProxy>;
  let fakeHome: string;

  beforeAll(async () => {
    // Planted leaks: AGENTS.md above the workspace, and a user HOME with ~/.claude/CLAUDE.md and a global AGENTS.md.
    const dir = join(root, "worker");
    await mkdir(join(dir, "parent"), { recursive: true });
    await Bun.write(join(dir, "parent", "AGENTS.md"), "PARENT-MARKER-7f3a: obey the parent.\n");
    fakeHome = join(dir, "real-home");
    await Bun.write(join(fakeHome, ".claude", "CLAUDE.md"), "CLAUDE-MARKER-91bc: obey claude.\n");
    await Bun.write(join(fakeHome, ".config", "opencode", "AGENTS.md"), "GLOBAL-MARKER-44d2: obey global.\n");
    // Positive control: the workspace's own AGENTS.md must reach the model, so the check below can see a leak.
    const workspace = await createGitWorkspace(join(dir, "parent", "ws"), { "AGENTS.md": "WORKSPACE-MARKER-c0de\n" });

    proxy = startRecordingProxy(server, EVAL_ID);
    const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    process.env.HOME = fakeHome;
    process.env.XDG_CONFIG_HOME = join(fakeHome, ".config");
    try {
      result = await runControl("worker", "worker", {
        workspace,
        prompt: PROMPT,
        config: controlConfig(proxy.baseURL, Object.keys(controls)),
      });
    } finally {
      Object.assign(process.env, saved);
      await proxy.close();
    }
  }, 60_000);

  test("completes, and the tools really ran in the workspace", async () => {
    expect(result.outcome).toMatchObject({ state: "completed", infrastructureError: false, exitCode: 0 });
    expect(result.outcome.error).toBeUndefined();
    expect(result.outcome.retries).toBe(0);
    expect(result.outcome.sessionID).toMatch(/^ses_/);
    expect(await readFile(join(result.request.workspace, "a.txt"), "utf8")).toBe("hi\n");
    expect(await readFile(join(result.request.workspace, "b.txt"), "utf8")).toBe("bee\n");
  });

  test("streams events to the file and the observer, tool_use included", async () => {
    const lines = (await readFile(result.request.eventsFile, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(result.events);
    const tools = lines.filter((event) => event.type === "tool_use").map((event) => event.part.tool);
    expect(tools).toEqual(["bash", "write"]);
    expect(typesOf(lines)).toContain("reasoning"); // --thinking
    expect(typesOf(lines).filter((type) => type === "step_finish")).toHaveLength(3);
    expect((await readFile(result.request.stderrFile, "utf8")).length).toBeGreaterThan(0); // --print-logs
  });

  test("the prompt reaches the model verbatim, and no instructions from outside the workspace do", () => {
    expect(proxy.bodies.length).toBeGreaterThanOrEqual(3);
    const first = proxy.bodies[0]!;
    const user = first.messages.find((message) => message.role === "user")!;
    const userText =
      typeof user.content === "string"
        ? user.content
        : (user.content as { text: string }[]).map((part) => part.text).join("");
    expect(userText).toBe(PROMPT);
    expect(systemText(first)).toContain("WORKSPACE-MARKER-c0de");
    for (const body of proxy.bodies) {
      const everything = JSON.stringify(body);
      expect(everything).not.toContain("PARENT-MARKER-7f3a");
      expect(everything).not.toContain("CLAUDE-MARKER-91bc");
      expect(everything).not.toContain("GLOBAL-MARKER-44d2");
    }
  });

  test("OpenCode stayed inside its scratch dir: no title call, no plugin install", async () => {
    // --title skips the tools-less title request; every request carried tools.
    expect(server.requests.filter((r) => r.control === "worker").every((r) => r.hadTools)).toBe(true);
    const { paths } = await prepareIsolation(result.request.scratchDir);
    expect(await readdir(join(paths.config, "opencode", "node_modules"))).toEqual([]);
    await expect(stat(join(paths.home, ".npm"))).rejects.toThrow();
    await expect(stat(join(fakeHome, ".local"))).rejects.toThrow();
  });

  test("the archive is one redacted file holding the session, and its sha256 matches", async () => {
    const target = join(result.dir, "out", "opencode.db");
    const archived = await archiveDatabase({ live: result.outcome.databasePath, target, secrets: [] });
    const bytes = await readFile(target);
    expect(archived).toEqual({ path: target, sha256: sha256(bytes), bytes: bytes.byteLength });
    await expect(stat(`${target}-wal`)).rejects.toThrow();
    const db = new Database(target, { readonly: true });
    const sessions = db.query<{ id: string }, []>("SELECT id FROM session").all();
    const parts = db.query<{ n: number }, []>("SELECT count(*) AS n FROM part").get();
    db.close();
    expect(sessions.map((s) => s.id)).toEqual([result.outcome.sessionID]);
    expect(parts?.n).toBeGreaterThan(5);
    expect(sha256(await readFile(target))).toBe(archived.sha256); // reading did not change it
  });

  test("the native export of each session is OpenCode's own export, byte for byte", async () => {
    const targetDir = join(result.dir, "out", "exports");
    const { sessions } = await exportSessions({ databasePath: result.outcome.databasePath, targetDir, secrets: [] });
    expect(sessions).toEqual([
      { id: result.outcome.sessionID, parentID: null, file: join(targetDir, `${result.outcome.sessionID}.json`) },
    ]);
    const text = await readFile(sessions[0]!.file, "utf8");
    expect(text.length).toBeGreaterThan(70_000);
    expect(JSON.parse(text).messages.length).toBeGreaterThanOrEqual(4);
    const reference = await exportWithOpenCode(result.outcome.databasePath);
    expect(text).toBe(reference.get(result.outcome.sessionID!));
  }, 30_000);
});

/** `sleep 30` processes running in the workspace (so only this run's). */
function sleepsIn(workspace: string): Promise<number[]> {
  return findSleeps(["30"], workspace);
}

// The timeout leaves room: on a 2-core machine with other suites running, OpenCode needed over 25 s to reach its
// first tool call, and a kill before the sleeps exist would prove nothing (hence the `sawSleeps` check). The control
// calls its tool again whenever the sleeps end, so there are sleeps to kill whenever the deadline comes.
const SLEEPER_TIMEOUT_MS = 60_000;

const namespaceAvailable = (await detectPidNamespace()) !== null;

// The PID namespace needs root or unprivileged user namespaces; without them only the /proc walk is tested.
test.skipIf(!namespaceAvailable)(
  "a control looping on `sleep 30 & sleep 30` times out; no sleep survives (PID namespace)",
  () => expectSleeperKilled(true, "pid-namespace"),
);

test("a control looping on `sleep 30 & sleep 30` times out; no sleep survives (/proc walk)", () =>
  expectSleeperKilled(false, "proc-walk"));

async function expectSleeperKilled(pidNamespace: boolean, confinement: OpenCodeOutcome["confinement"]): Promise<void> {
  const dir = join(root, `sleeper-${confinement}`);
  const workspace = await createGitWorkspace(join(dir, "parent", "ws"));
  let sawSleeps = false;
  let running = true;
  const watcher = (async () => {
    while (running) {
      if ((await sleepsIn(workspace)).length > 0) sawSleeps = true;
      await Bun.sleep(100);
    }
  })();
  const { outcome } = await runControl(`sleeper-${confinement}`, "sleeper", {
    workspace,
    timeoutMs: SLEEPER_TIMEOUT_MS,
    pidNamespace,
  }).finally(() => {
    running = false;
  });
  await watcher;

  expect(outcome.confinement).toBe(confinement);
  expect(outcome.state).toBe("timed_out");
  expect(outcome.infrastructureError, JSON.stringify(outcome)).toBe(false); // a step had begun: the hang is the candidate's own tool call
  expect(sawSleeps).toBe(true); // the kill had something to kill
  expect(outcome.elapsedMs).toBeLessThan(SLEEPER_TIMEOUT_MS + 5_000);
  await Bun.sleep(200);
  expect(await sleepsIn(workspace)).toEqual([]);
}

test("a provider that answers only HTTP 500 is an infrastructure failure", async () => {
  // OpenCode's five retries wait seconds each: time enough for them on a loaded machine.
  const { outcome, events } = await runControl("broken", "broken", { timeoutMs: 180_000 });
  expect(outcome).toMatchObject({ state: "failed", infrastructureError: true, exitCode: 1 });
  expect(outcome.error).toContain("control says no");
  expect(typesOf(events)).toEqual(["error"]);
  // OpenCode's five retries of the one step, read from its log (it persists none).
  expect(outcome.retries).toBe(5);
});

test("a provider that fails transiently is retried by OpenCode, and every retry is counted and signalled live", async () => {
  const signals: ProviderSignal[] = [];
  const { outcome } = await runControl("flaky", "flaky", { onProviderSignal: (signal) => signals.push(signal) });
  expect(outcome).toMatchObject({ state: "completed", infrastructureError: false, exitCode: 0 });
  const attempts = server.requests
    .filter((request) => request.control === "flaky" && request.hadTools)
    .map((request) => request.status);
  expect(attempts).toEqual([503, 200, 429, 429, 200]);
  expect(outcome.retries).toBe(3);
  // The same attempts as the runner sees them while the session runs (log lines in order; the answered steps come
  // from the event stream, a separate pipe): each failure says which pressure it was.
  const logged = signals
    .filter((signal) => signal.kind !== "answered")
    .map((signal) => (signal.kind === "failed" ? `failed ${signal.pressure}` : signal.kind));
  expect(logged).toEqual([
    "sent",
    "failed unavailable",
    "sent",
    "sent",
    "failed rate_limited",
    "sent",
    "failed rate_limited",
    "sent",
  ]);
  expect(signals.filter((signal) => signal.kind === "answered")).toHaveLength(2);
  expect(signals.every((signal) => signal.kind === "answered" || signal.provider === "control")).toBe(true);
});

test("OpenCode that cannot start is an infrastructure failure", async () => {
  const { outcome } = await runControl("nostart", "worker", { opencodeBinary: "/nonexistent/opencode" });
  expect(outcome.state).toBe("failed");
  expect(outcome.infrastructureError).toBe(true);
  expect(outcome.error).toBeTruthy();
});

test("a planted key that the agent prints is nowhere in events, stderr, archive or exports", async () => {
  const secrets = [PLANTED_ANTHROPIC, PLANTED_AUTH, PLANTED_OPENAI];
  const { outcome, request, dir } = await runControl("leaker", "leaker", {
    credentials: { env: { ANTHROPIC_API_KEY: PLANTED_ANTHROPIC }, auth: { type: "api", key: PLANTED_AUTH } },
    secrets,
  });
  expect(outcome.state).toBe("completed");

  // The leak really happened (so the scan below could fail): the live database holds every planted value.
  const live = Buffer.concat([
    await readFile(outcome.databasePath),
    await readFile(`${outcome.databasePath}-wal`).catch(() => Buffer.alloc(0)),
  ]);
  for (const secret of secrets) expect(live.includes(secret), secret).toBe(true);

  const archive = await archiveDatabase({
    live: outcome.databasePath,
    target: join(dir, "out", "opencode.db"),
    secrets,
  });
  const { sessions } = await exportSessions({
    databasePath: outcome.databasePath,
    targetDir: join(dir, "out", "exports"),
    secrets,
  });
  const files = [request.eventsFile, request.stderrFile, archive.path, ...sessions.map((s) => s.file)];
  for (const file of files) {
    const bytes = await readFile(file);
    for (const secret of secrets) expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
  }
  expect(await readFile(request.eventsFile, "utf8")).toContain("[REDACTED]");
}, 45_000);

test("maxCostUSD stops a looping control once the recorded cost passes it", async () => {
  const { outcome, events } = await runControl("spender", "spender", { maxCostUSD: 0.15 });
  expect(outcome).toMatchObject({ state: "cost_limited", infrastructureError: false });
  const costs = events
    .filter((event) => (event as { type: string }).type === "step_finish")
    .map((event) => (event as { part: { cost: number } }).part.cost);
  expect(costs.length).toBeGreaterThanOrEqual(2);
  expect(costs[0]).toBeCloseTo(0.102, 6);
});

test("an abort signal interrupts the run and kills it", async () => {
  const controller = new AbortController();
  const { outcome } = await runControl("looper", "looper", {
    signal: controller.signal,
    onEvent: (event) => {
      if ((event as { type: string }).type === "step_finish") controller.abort();
    },
  });
  expect(outcome).toMatchObject({ state: "interrupted", infrastructureError: false });
  expect(outcome.exitCode).toBeNull();
});

describe("OpenCode's file tools outside the workspace", () => {
  test("are refused, and the session goes on", async () => {
    await Bun.write(join(root, "outsider", "parent", "outside.txt"), "OUTSIDE-MARKER-5e1f\n");
    const { outcome, events } = await runControl("outsider", "outsider", { timeoutMs: 120_000 });
    expect(outcome.state).toBe("completed");
    const tools = events.filter((event) => (event as { type: string }).type === "tool_use") as {
      part: { tool: string; state: { status: string; error?: string } };
    }[];
    expect(tools.map((event) => [event.part.tool, event.part.state.status])).toEqual([
      ["read", "error"],
      ["glob", "error"],
    ]);
    for (const event of tools)
      expect(event.part.state.error).toMatch(/prevents you from using this specific tool call/);
    expect(JSON.stringify(events)).not.toContain("OUTSIDE-MARKER-5e1f");
  }, 180_000);
});
