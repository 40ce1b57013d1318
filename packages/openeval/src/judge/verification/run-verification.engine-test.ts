// Verification on a real engine: each guarantee of a verification run, checked by a command that tries to break it.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../util/hash.ts";
import { readVerificationArtifact } from "./artifacts.ts";
import { openSandboxEngine } from "../../sandbox/index.ts";
import { reapVerificationContainers } from "./verification-sandbox.ts";
import { RECEIPT_FILE, runVerification, type RunVerificationOptions } from "./run-verification.ts";
import { VerificationReceiptSchema, type VerificationLimits, type VerificationRequest } from "../../recording/index.ts";
import {
  constructedEvidence,
  engineReachable,
  engineSuite,
  makeTempDirectory,
  verificationImage,
} from "./fixtures/engine.ts";

const LIMITS: VerificationLimits = {
  cpus: 1,
  memoryMiB: 256,
  pids: 128,
  logBytes: 64 * 1024,
  artifactBytes: 256 * 1024,
};
let imageId: string;
let directory: string;

beforeAll(async () => {
  if (!engineReachable) return;
  imageId = (await verificationImage()).imageId;
  directory = await makeTempDirectory();
});

async function verify(request: VerificationRequest, options: Partial<RunVerificationOptions> = {}) {
  const evidence =
    options.evidence ??
    (await constructedEvidence({
      initial: { "app.py": "VERSION = 1\n" },
      final: { "app.py": "VERSION = 2\n", "pkg/util.py": "def double(x):\n    return 2 * x\n" },
    }));
  return runVerification({
    image: imageId,
    evidence,
    request,
    limits: LIMITS,
    labels: { judgeRun: "jr_engine_test" },
    directory,
    ...options,
  });
}

async function containersOf(id: string) {
  return (await openSandboxEngine("container")).list({ "openeval.verification": id });
}

const python = (code: string) => ["python3", "-c", code];

describe.skipIf(!engineReachable)(engineSuite("runVerification in the verification image"), () => {
  it("restores the chosen snapshot, runs argv without a shell as a non-root user, keeps the receipt and removes the container", async () => {
    const result = await verify({
      revision: "final",
      timeoutMs: 60_000,
      cwd: "pkg",
      files: {
        "test_util.py":
          "import sys\nsys.path.insert(0, '/workspace/pkg')\nfrom util import double\nassert double(21) == 42\nprint('check ok')\n",
      },
      commands: [
        ["id", "-u"],
        ["echo", "$HOME", "*"],
        ["python3", "/verification/test_util.py"],
        ["cat", "../app.py"],
      ],
    });
    expect(result).toMatchObject({
      state: "completed",
      exitCode: 0,
      logsTruncated: false,
      artifacts: [],
      missingArtifacts: [],
    });
    expect(result.commands.map((command) => command.exitCode)).toEqual([0, 0, 0, 0]);
    expect(result.stdout).toBe("10001\n$HOME *\ncheck ok\nVERSION = 2\n");
    const receipt = VerificationReceiptSchema.parse(
      JSON.parse(await readFile(join(directory, result.id, RECEIPT_FILE), "utf8")),
    );
    expect(receipt.result).toEqual(result);
    expect(receipt.imageId).toBe(imageId);
    expect(await readFile(join(directory, result.id, "stdout.log"), "utf8")).toBe(result.stdout);
    expect(await containersOf(result.id)).toEqual([]);

    const initial = await verify({ revision: "initial", timeoutMs: 30_000, commands: [["cat", "app.py"], ["ls"]] });
    expect(initial.stdout).toBe("VERSION = 1\napp.py\n");
  });

  it("stops at the first command that fails and reports its exit code", async () => {
    const result = await verify({
      timeoutMs: 30_000,
      commands: [["true"], ["sh", "-c", "echo failing >&2; exit 3"], ["echo", "never runs"]],
    });
    expect(result).toMatchObject({ state: "completed", exitCode: 3, stderr: "failing\n", stdout: "" });
    expect(result.commands.map((command) => command.argv[0])).toEqual(["true", "sh"]);
  });

  it("has no network: no route out, and the host's own 127.0.0.1 is out of reach", async () => {
    const server = createServer((socket) => socket.destroy());
    const connections: number[] = [];
    server.on("connection", () => connections.push(Date.now()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const result = await verify({
        timeoutMs: 30_000,
        commands: [
          // Only loopback exists and there is no route at all, so no packet can leave: then try anyway.
          python(
            "import sys\nroutes = open('/proc/net/route').read().splitlines()[1:]\nnics = [l.split(':')[0].strip() for l in open('/proc/net/dev').read().splitlines()[2:]]\nprint('nics', nics, 'routes', len(routes))\nsys.exit(0 if nics == ['lo'] and not routes else 1)",
          ),
          python(
            `import socket\nfor host in ['192.0.2.1', '127.0.0.1']:\n    try:\n        socket.create_connection((host, ${port}), timeout=3)\n        print(host, 'CONNECTED')\n    except OSError as error:\n        print(host, type(error).__name__, error.errno)`,
          ),
          python(
            "import socket\ntry:\n    socket.getaddrinfo('registry.npmjs.org', 443)\n    print('RESOLVED')\nexcept OSError as error:\n    print('dns', type(error).__name__)",
          ),
        ],
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain("nics ['lo'] routes 0");
      expect(result.stdout).toMatch(/192\.0\.2\.1 OSError 101/); // ENETUNREACH
      expect(result.stdout).toMatch(/127\.0\.0\.1 ConnectionRefusedError 111/);
      expect(result.stdout).toContain("dns gaierror");
      expect(result.stdout).not.toMatch(/CONNECTED|RESOLVED/);
      expect(connections).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("ends a command that outlives timeoutMs as timed_out and leaves no container behind", async () => {
    const started = Date.now();
    const result = await verify({
      timeoutMs: 2_000,
      commands: [
        ["sh", "-c", "echo started; sleep 60"],
        ["echo", "never runs"],
      ],
    });
    expect(result.state).toBe("timed_out");
    expect(result.exitCode).toBeNull();
    expect(result.commands).toEqual([
      { argv: ["sh", "-c", "echo started; sleep 60"], exitCode: null, elapsedMs: expect.any(Number) },
    ]);
    expect(result.commands[0]!.elapsedMs).toBeGreaterThanOrEqual(1_900);
    expect(result.stdout).toBe("started\n");
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await containersOf(result.id)).toEqual([]);
  });

  it("has a read-only root, a writable workspace and /tmp, and check files the commands cannot change", async () => {
    const result = await verify({
      timeoutMs: 30_000,
      files: { "check.sh": "echo check" },
      commands: [
        ["sh", "-c", "echo ok > out.txt && echo ok > /tmp/x && cat out.txt /tmp/x"],
        [
          "sh",
          "-c",
          "touch /etc/evil; touch /usr/local/bin/evil; echo x >> /verification/check.sh; touch /verification/new; exit 0",
        ],
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("ok\nok\n");
    expect(result.stderr).toContain("touch: cannot touch '/etc/evil': Read-only file system");
    expect(result.stderr).toContain("touch: cannot touch '/usr/local/bin/evil': Read-only file system");
    expect(result.stderr).toMatch(/\/verification\/check\.sh: Permission denied/);
    expect(result.stderr).toContain("touch: cannot touch '/verification/new': Permission denied");

    const failing = await verify({ timeoutMs: 30_000, commands: [["touch", "/opt/outside-workspace"]] });
    expect(failing.exitCode).not.toBe(0);
    expect(failing.stderr).toContain("Read-only file system");
  });

  it("passes no host environment (no credentials) and enforces memory, pids and CPU limits", async () => {
    process.env.OPENEVAL_TEST_SECRET_KEY = "sk-verification-planted-secret";
    const result = await verify({
      timeoutMs: 60_000,
      commands: [
        [
          "sh",
          "-c",
          "env; cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max /sys/fs/cgroup/cpu.max",
        ],
        python(
          "import subprocess\nchildren, refused = [], 0\nfor _ in range(300):\n    try:\n        children.append(subprocess.Popen(['sleep', '2']))\n    except OSError:\n        refused += 1\nfor child in children:\n    child.wait()\nprint('forks', len(children), 'refused', refused)",
        ),
        python("blocks = [bytearray(32 * 1024 * 1024) for _ in range(24)]\nprint('allocated 768 MiB')"),
      ],
    });
    delete process.env.OPENEVAL_TEST_SECRET_KEY;
    expect(`${result.stdout}${result.stderr}`).not.toContain("sk-verification-planted-secret");
    expect(result.stdout).not.toMatch(/OPENEVAL_TEST_SECRET_KEY|DOCKER_HOST/);
    expect(result.stdout).toContain(String(256 * 1_048_576));
    expect(result.stdout).toMatch(/^128$/m);
    expect(result.stdout).toMatch(/^100000( 100000)?$/m);
    const [, started, refused] = /forks (\d+) refused (\d+)/.exec(result.stdout) ?? [];
    expect(Number(started)).toBeLessThan(128);
    expect(Number(refused)).toBeGreaterThan(172);
    expect(result.commands[2]!.exitCode).toBe(137); // killed by the memory cgroup
    expect(result.stdout).not.toContain("allocated 768 MiB");
  });

  it("bounds logs and flags the truncation", async () => {
    const result = await verify({
      timeoutMs: 30_000,
      commands: [python("import sys\nsys.stdout.write('x' * 200_000)\nsys.stderr.write('e' * 10)")],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("x".repeat(64 * 1024));
    expect(result.stderr).toBe("e".repeat(10));
    expect(result.logsTruncated).toBe(true);
  });

  it("copies a requested artifact out with a matching sha256, and reads it back only if it still matches", async () => {
    const result = await verify({
      timeoutMs: 30_000,
      commands: [
        python(
          "import os\nos.makedirs('out', exist_ok=True)\nopen('out/data.bin', 'wb').write(bytes(range(256)) * 400)",
        ),
        ["sha256sum", "out/data.bin"],
      ],
      artifacts: ["out/data.bin", "out/absent.txt"],
    });
    expect(result.exitCode).toBe(0);
    const inside = result.stdout.split(" ")[0];
    expect(result.artifacts).toEqual([{ path: "out/data.bin", bytes: 102_400, sha256: inside }]);
    expect(result.missingArtifacts).toEqual(["out/absent.txt"]);
    const bytes = await readVerificationArtifact(result, "out/data.bin", directory);
    expect(sha256(bytes)).toBe(inside);
    expect(bytes[255]).toBe(255);
  });

  it("refuses an artifact over the size cap, and says so, instead of truncating it", async () => {
    const result = await verify({
      timeoutMs: 30_000,
      commands: [["sh", "-c", "head -c 1048576 /dev/urandom > big.bin && ln -s /etc/passwd link && mkdir folder"]],
      artifacts: ["big.bin", "link", "folder"],
    });
    expect(result.exitCode).toBe(0);
    expect(result.artifacts).toEqual([]);
    expect(result.refusedArtifacts).toEqual([
      { path: "big.bin", reason: `is 1048576 bytes, over the ${256 * 1024}-byte artifact limit`, bytes: 1_048_576 },
      { path: "link", reason: "is a symlink (to /etc/passwd); artifacts are regular files", bytes: null },
      { path: "folder", reason: "is a folder, not a file", bytes: null },
    ]);
    expect(existsSync(join(directory, result.id, "artifacts", "big.bin"))).toBe(false);
    await expect(readVerificationArtifact(result, "big.bin", directory)).rejects.toThrow(
      /refused: it is 1048576 bytes/,
    );
  });

  it("leaves a killed harness's container to reapVerificationContainers(), which removes it", async () => {
    const evidenceDirectory = (await constructedEvidence({ final: { "a.txt": "a" } })).directory;
    const script = join(import.meta.dirname, "fixtures", "crash-process.ts");
    const child = Bun.spawn([process.execPath, script, imageId, evidenceDirectory, directory], {
      stdout: "pipe",
      stderr: "inherit",
    });
    // The child prints the container's verification id once its command is running, then we kill it.
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    child.kill("SIGKILL");
    await child.exited;
    const leftover = await (await openSandboxEngine("container")).list({ "openeval.judge-run": "jr_crashed" });
    expect(leftover.length).toBe(1);
    expect(await reapVerificationContainers()).toContain(leftover[0]!);
    expect(await (await openSandboxEngine("container")).list({ "openeval.judge-run": "jr_crashed" })).toEqual([]);
  });
});
