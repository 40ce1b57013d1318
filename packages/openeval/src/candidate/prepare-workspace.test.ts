import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { hostStepRunner, prepareWorkspace } from "./prepare-workspace.ts";

const SECRET = "sk-prepare-secret-0123456789";

async function prepareIn(steps: { cwd: string; argv: string[] }[], timeoutMs?: number, signal?: AbortSignal) {
  const root = await makeTempDir();
  const workspace = join(root, "workspace");
  await mkdir(join(workspace, "app"), { recursive: true });
  const logFile = join(root, "logs", "prepare.log");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root };
  const failure = await prepareWorkspace(steps, {
    workspace,
    env,
    runStep: hostStepRunner(`test-${Date.now()}`),
    logFile,
    logPath: "logs/prepare.log",
    secrets: [SECRET],
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(signal ? { signal } : {}),
  });
  return { failure, workspace, log: existsSync(logFile) ? await readFile(logFile, "utf8") : null };
}

describe("prepareWorkspace on this machine", { timeout: 30_000 }, () => {
  it("runs the steps in order, each in its folder, and logs their output", async () => {
    const { failure, workspace, log } = await prepareIn([
      { cwd: ".", argv: ["sh", "-c", "echo made > made.txt; echo first"] },
      { cwd: "app", argv: ["sh", "-c", "cat ../made.txt > copied.txt; echo second >&2"] },
    ]);
    expect(failure).toBeNull();
    expect(await readFile(join(workspace, "app", "copied.txt"), "utf8")).toBe("made\n");
    expect(log).toContain("$ (cd . && sh -c 'echo made > made.txt; echo first')\nfirst\n[exited 0]");
    expect(log).toContain("second\n[exited 0]");
  });

  it("stops at a failing step: a preparation error naming the step, its exit code and its output's tail, redacted", async () => {
    const { failure, workspace, log } = await prepareIn([
      { cwd: ".", argv: ["sh", "-c", `echo using ${SECRET}; echo broken >&2; exit 3`] },
      { cwd: ".", argv: ["touch", "never.txt"] },
    ]);
    expect(failure?.preparation).toEqual({
      step: 1,
      cwd: ".",
      argv: ["sh", "-c", "echo using [REDACTED]; echo broken >&2; exit 3"],
      exitCode: 3,
      timedOut: false,
      outputTail: "using [REDACTED]\nbroken",
      log: "logs/prepare.log",
    });
    expect(failure?.message).toMatch(
      /^Preparation error: prepare step 1 \(sh -c .*\) exited 3, last output: broken; fix the eval's prepare steps or workspace, then execute it again with openeval retry$/,
    );
    expect(existsSync(join(workspace, "never.txt"))).toBe(false);
    expect(log).not.toContain(SECRET);
    expect(failure?.message).not.toContain(SECRET);
  });

  it("kills a step at its timeout, with what it started", async () => {
    const started = Date.now();
    const { failure } = await prepareIn([{ cwd: ".", argv: ["sh", "-c", "sleep 30 & sleep 30"] }], 500);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failure?.preparation).toMatchObject({ step: 1, exitCode: null, timedOut: true });
    expect(failure?.message).toContain("timed out after 1 s");
  });

  it("kills the running step when the runner stops, and starts no further step", async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const started = Date.now();
    const { failure, workspace } = await prepareIn(
      [
        { cwd: ".", argv: ["sleep", "30"] },
        { cwd: ".", argv: ["touch", "never.txt"] },
      ],
      undefined,
      stop.signal,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failure?.preparation).toMatchObject({ step: 1, exitCode: null, timedOut: false });
    expect(existsSync(join(workspace, "never.txt"))).toBe(false);
  });

  it("reports a step that cannot start (its folder is missing) as a preparation error", async () => {
    const { failure } = await prepareIn([{ cwd: "missing", argv: ["true"] }]);
    expect(failure?.preparation).toMatchObject({ step: 1, cwd: "missing", exitCode: null, timedOut: false });
    expect(failure?.message).toContain("could not start");
  });
});
