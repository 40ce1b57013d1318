// The one contract every sandbox engine keeps, run by a test per implementation: exit codes, env and
// stdin (given whole or streamed), the deadline, output caps, copy in/out, whole-tree kill and reaping by label.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import type { Sandbox, SandboxEngine, SandboxSpec } from "./sandbox.ts";

export interface ContractFixture {
  engine: () => Promise<SandboxEngine>;
  /** The implementation's base spec (an image for containers). */
  spec: () => Promise<Pick<SandboxSpec, "image">>;
  /** Whether any process started in the sandbox with this token in its argv is still alive, seen from outside. */
  alive: (sandbox: Sandbox, token: string) => Promise<boolean>;
}

const LIMITS = { cpus: 1, memoryMiB: 256, pids: 128, tmpMiB: 16 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function collector() {
  const chunks: Uint8Array[] = [];
  return {
    write: (chunk: Uint8Array) => void chunks.push(chunk.slice()),
    text: () => decoder.decode(Buffer.concat(chunks)),
  };
}

/** `sleep 300 0.000…` sleeps a little longer than 300 s; the token tells this test's processes from anyone else's. */
function sleepToken(): string {
  return `0.${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

/** Samples this process's resident memory until stopped; returns the most it grew by. */
function peakRss(): { stop: () => number } {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => void (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss()) - start;
    },
  };
}

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await Bun.sleep(25);
}

export function describeSandboxContract(title: string, fixture: ContractFixture): void {
  describe(title, () => {
    const contract = `contract-${randomBytes(4).toString("hex")}`;
    const created: Sandbox[] = [];
    const open = async (labels: Record<string, string> = {}, spec: Partial<SandboxSpec> = {}) => {
      const engine = await fixture.engine();
      const sandbox = await engine.create({
        ...(await fixture.spec()),
        labels: { "openeval.contract": contract, ...labels },
        folders: ["/work"],
        workdir: "/work",
        limits: LIMITS,
        lifetimeMs: 120_000,
        ...spec,
      });
      created.push(sandbox);
      return sandbox;
    };
    const inFuture = (ms: number) => Date.now() + ms;

    afterAll(async () => {
      for (const sandbox of created) await sandbox.remove();
      expect(await (await fixture.engine()).list({ "openeval.contract": contract })).toEqual([]);
    });

    it("reports exit codes: 0, the command's own, and a missing program as 126/127", async () => {
      const sandbox = await open();
      expect((await sandbox.run(["true"], { deadline: inFuture(30_000) })).exitCode).toBe(0);
      expect((await sandbox.run(["sh", "-c", "exit 3"], { deadline: inFuture(30_000) })).exitCode).toBe(3);
      const missing = await sandbox.run(["openeval-no-such-program"], { deadline: inFuture(30_000) });
      expect([126, 127]).toContain(missing.exitCode);
    });

    it("runs in the given folder with the given env and stdin, and nothing of the host's environment", async () => {
      process.env.OPENEVAL_CONTRACT_SECRET = "sk-contract-planted";
      const sandbox = await open({}, { env: { FROM_SPEC: "spec" } });
      await sandbox.copyIn("/work", [{ type: "directory", path: "sub", ...sandbox.user }]);
      const stdout = collector();
      const outcome = await sandbox.run(
        ["sh", "-c", 'printf "%s|%s|%s|[%s]|" "$GREETING" "$FROM_SPEC" "$(pwd)" "$OPENEVAL_CONTRACT_SECRET"; cat'],
        {
          cwd: "/work/sub",
          env: { GREETING: "hi" },
          stdin: encoder.encode("piped input"),
          deadline: inFuture(30_000),
          stdout,
        },
      );
      delete process.env.OPENEVAL_CONTRACT_SECRET;
      expect(outcome.exitCode).toBe(0);
      expect(stdout.text()).toBe(`hi|spec|${sandbox.path("/work/sub")}|[]|piped input`);
    });

    it("streams stdin to a running command: its echo comes back before stdin closes, and the exit after", async () => {
      const sandbox = await open();
      let input!: ReadableStreamDefaultController<Uint8Array>;
      const stdin = new ReadableStream<Uint8Array>({ start: (controller) => void (input = controller) });
      const stdout = collector();
      const running = sandbox.run(["cat"], { stdin, deadline: inFuture(30_000), stdout });
      let exited = false;
      void running.then(() => (exited = true));
      input.enqueue(encoder.encode("ping\n"));
      await waitFor(() => stdout.text() === "ping\n");
      expect(stdout.text()).toBe("ping\n");
      input.enqueue(encoder.encode("pong\n"));
      await waitFor(() => stdout.text() === "ping\npong\n");
      expect(stdout.text()).toBe("ping\npong\n");
      expect(exited).toBe(false);
      input.close();
      expect(await running).toMatchObject({ exitCode: 0, timedOut: false, stdoutBytes: 10 });
    });

    it("kills everything at the deadline: timedOut, no exit code, output so far kept, folders still readable", async () => {
      const sandbox = await open();
      const token = sleepToken();
      const stdout = collector();
      const outcome = await sandbox.run(["sh", "-c", `echo kept > kept.txt; echo started; sleep 300 ${token}`], {
        deadline: inFuture(1_500),
        stdout,
      });
      expect(outcome).toMatchObject({ timedOut: true, exitCode: null });
      expect(stdout.text()).toBe("started\n");
      expect(await fixture.alive(sandbox, token)).toBe(false);
      const host = await makeTempDir("openeval-contract-out-");
      expect(await sandbox.copyOut("/work/kept.txt", join(host, "kept.txt"), { maxBytes: 1024 })).toMatchObject({
        kind: "copied",
        type: "file",
      });
      expect(readFileSync(join(host, "kept.txt"), "utf8")).toBe("kept\n");
    });

    it("caps each output stream, counting what it drops", async () => {
      const sandbox = await open();
      const stdout = collector();
      const stderr = collector();
      const outcome = await sandbox.run(["sh", "-c", "head -c 200000 /dev/zero | tr '\\0' x; printf eeeee >&2"], {
        deadline: inFuture(30_000),
        stdout,
        stderr,
        maxOutputBytes: 65_536,
      });
      expect(outcome).toMatchObject({ exitCode: 0, stdoutBytes: 200_000, stderrBytes: 5, truncated: true });
      expect(stdout.text()).toBe("x".repeat(65_536));
      expect(stderr.text()).toBe("eeeee");
    });

    it("copies files in (modes, symlinks) and out (files, folders, missing, over the cap)", async () => {
      const sandbox = await open();
      await sandbox.copyIn("/work", [
        { type: "directory", path: "sub", mode: 0o755, ...sandbox.user },
        {
          type: "file",
          path: "sub/run.sh",
          data: encoder.encode("echo from-script > ../out/result.txt\n"),
          mode: 0o755,
          ...sandbox.user,
        },
        { type: "symlink", path: "sub/link", target: "run.sh", ...sandbox.user },
        { type: "directory", path: "out", mode: 0o755, ...sandbox.user },
      ]);
      const outcome = await sandbox.run(
        [
          "sh",
          "-c",
          "test -x sub/run.sh && test -L sub/link && cd sub && ./link && head -c 100000 /dev/zero > ../big.bin",
        ],
        { deadline: inFuture(30_000) },
      );
      expect(outcome.exitCode).toBe(0);
      const host = await makeTempDir("openeval-contract-out-");
      expect(await sandbox.copyOut("/work/out", join(host, "out"), { maxBytes: 1024 })).toEqual({
        kind: "copied",
        type: "directory",
        target: "",
        skipped: [],
        omitted: [],
      });
      expect(readdirSync(join(host, "out"))).toEqual(["result.txt"]);
      expect(readFileSync(join(host, "out", "result.txt"), "utf8")).toBe("from-script\n");
      expect(await sandbox.copyOut("/work/sub/link", join(host, "link"), { maxBytes: 1024 })).toMatchObject({
        kind: "copied",
        type: "symlink",
        target: "run.sh",
      });
      expect(await sandbox.copyOut("/work/absent", join(host, "absent"), { maxBytes: 1024 })).toEqual({
        kind: "missing",
      });
      expect(await sandbox.copyOut("/work/big.bin", join(host, "big.bin"), { maxBytes: 1024 })).toMatchObject({
        kind: "over-limit",
        directory: false,
      });
      expect(existsSync(join(host, "big.bin"))).toBe(false);
    });

    it("copies out to disk what Linux allows: hard links, backslashes and `..` inside names, long and non-UTF-8 names, a 2 GiB sparse file, in bounded memory", async () => {
      const sandbox = await open();
      const longName = "n".repeat(250);
      const script = [
        "mkdir -p ws/sub ws/odd",
        "echo linked > ws/a.txt && ln ws/a.txt ws/sub/b.txt",
        "echo one > 'ws/x\\..\\..\\y' && echo two > 'ws/back\\slash..\\..\\x' && echo three > \"$(printf 'ws/odd/new\\nline')\" && echo four > \"$(printf 'ws/odd/bad\\377name')\"",
        `echo long > ws/${longName}`,
        "truncate -s 2G ws/sparse.bin && printf tail >> ws/sparse.bin",
      ].join(" && ");
      expect((await sandbox.run(["sh", "-c", script], { deadline: inFuture(60_000) })).exitCode).toBe(0);
      const host = join(await makeTempDir("openeval-contract-out-"), "ws");
      const rss = peakRss();
      const copied = await sandbox.copyOut("/work/ws", host, { maxBytes: 4 * 1024 ** 3 });
      const grownMiB = rss.stop() / 1024 ** 2;
      expect(copied).toEqual({ kind: "copied", type: "directory", target: "", skipped: [], omitted: [] });
      expect(readdirSync(host).sort()).toEqual(
        ["a.txt", "back\\slash..\\..\\x", longName, "odd", "sparse.bin", "sub", "x\\..\\..\\y"].sort(),
      );
      // A name that is not UTF-8 comes back under its decoded name (U+FFFD for the bad byte), never lost.
      expect(readdirSync(join(host, "odd")).sort()).toEqual(["bad\ufffdname", "new\nline"]);
      expect(statSync(join(host, "sub", "b.txt")).ino).toBe(statSync(join(host, "a.txt")).ino);
      expect(readFileSync(join(host, "x\\..\\..\\y"), "utf8")).toBe("one\n");
      expect(readFileSync(join(host, "back\\slash..\\..\\x"), "utf8")).toBe("two\n");
      expect(readFileSync(join(host, longName), "utf8")).toBe("long\n");
      const sparse = statSync(join(host, "sparse.bin"));
      expect(sparse.size).toBe(2 * 1024 ** 3 + 4);
      // Kept sparse: the 2 GiB of zeros take no disk here either.
      expect(sparse.blocks * 512).toBeLessThan(1024 ** 2);
      const tail = Buffer.alloc(4);
      const handle = openSync(join(host, "sparse.bin"), "r");
      readSync(handle, tail, 0, 4, sparse.size - 4);
      closeSync(handle);
      expect(tail.toString()).toBe("tail");
      // Streamed: the copy never holds the 2 GiB archive in memory.
      expect(grownMiB).toBeLessThan(512);
    });

    it("kills the whole tree, including a detached (setsid) child, while a command runs", async () => {
      const sandbox = await open();
      const token = sleepToken();
      const stdout = collector();
      const running = sandbox.run(["sh", "-c", `setsid sleep 300 ${token} & echo ready; sleep 300 ${token}`], {
        deadline: inFuture(60_000),
        stdout,
      });
      await waitFor(() => stdout.text().includes("ready"));
      expect(await fixture.alive(sandbox, token)).toBe(true);
      await sandbox.kill();
      expect(await running).toMatchObject({ exitCode: null, timedOut: false });
      expect(await fixture.alive(sandbox, token)).toBe(false);
    });

    it("reaps by label: every sandbox of a label, or only those whose owner is gone", async () => {
      const label = { "openeval.eval-run": `er_${randomBytes(4).toString("hex")}` };
      const engine = await fixture.engine();
      const sandbox = await open(label);
      const token = sleepToken();
      const stdout = collector();
      const running = sandbox.run(["sh", "-c", `echo ready; sleep 300 ${token}`], {
        deadline: inFuture(60_000),
        stdout,
      });
      await waitFor(() => stdout.text().includes("ready"));
      expect(await engine.list(label)).toEqual([sandbox.id]);
      // Its owner (this process) is alive: not an orphan.
      expect(await engine.reap(label, { orphansOnly: true })).toEqual([]);
      expect(await engine.reap(label)).toEqual([sandbox.id]);
      expect((await running).exitCode).toBeNull();
      expect(await fixture.alive(sandbox, token)).toBe(false);
      expect(await engine.list(label)).toEqual([]);
    });
  });
}
