// The candidate image on a real engine (`npm run test:containers`): built from images/candidate/ with the pinned
// OpenCode and Bun, a non-root user, the tools an agent needs, and nothing of any eval folder.
import { describe, expect, it } from "vitest";
import { openSandboxEngine, engineAddress, isEngineReachable, type Sandbox } from "../sandbox/index.ts";
import { OPENCODE_VERSION } from "../util/versions.ts";
import { buildCandidateImage, resolveCandidateImage } from "./candidate-image.ts";

const reachable = await isEngineReachable();

async function output(sandbox: Sandbox, argv: string[]): Promise<{ exitCode: number | null; text: string }> {
  const chunks: Uint8Array[] = [];
  const sink = { write: (chunk: Uint8Array) => void chunks.push(chunk.slice()) };
  const outcome = await sandbox.run(argv, { deadline: Date.now() + 60_000, stdout: sink, stderr: sink });
  return { exitCode: outcome.exitCode, text: new TextDecoder().decode(Buffer.concat(chunks)) };
}

describe.skipIf(!reachable)(`candidate image on ${engineAddress()}`, () => {
  it("pins OpenCode and Bun from this npm install, runs as a non-root user, has git, bash, python3, and no eval files", async () => {
    const image = await buildCandidateImage({
      onProgress: (event) => event.kind === "phase" && console.error(`[candidate image] ${event.message}`),
    });
    expect(image.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await resolveCandidateImage()).toEqual(image);
    const engine = await openSandboxEngine("container");
    const sandbox = await engine.create({
      image: image.imageId,
      labels: { "openeval.test": "candidate-image" },
      folders: ["/workspace", "/home/candidate"],
      workdir: "/workspace",
      limits: { cpus: 1, memoryMiB: 1024, pids: 256, tmpMiB: 64 },
      readOnlyRoot: true,
      lifetimeMs: 120_000,
    });
    try {
      expect(sandbox.user).toEqual({ uid: 10002, gid: 10002 });
      expect(await output(sandbox, ["opencode", "--version"])).toEqual({ exitCode: 0, text: `${OPENCODE_VERSION}\n` });
      const tools = await output(sandbox, [
        "bash",
        "-c",
        "git --version && python3 --version && bun --version && node --version && rg --version | sed -n 1p && touch /workspace/w /home/candidate/h /tmp/t && ! touch /usr/x 2>/dev/null && echo ok",
      ]);
      expect(tools.exitCode, tools.text).toBe(0);
      expect(tools.text).toMatch(/git version .*\nPython 3\.\d+\.\d+\n1\.\d+\.\d+\nv\d+\.\d+\.\d+\nripgrep .*\nok\n$/);
      const search = await output(sandbox, [
        "bash",
        "-c",
        "find / -xdev \\( -name 'judge.ts' -o -name 'judge.md' -o -name 'REFERENCE_FIX.md' -o -name 'benchmark.ts' -o -path '*/evals/*' \\) 2>/dev/null | head",
      ]);
      expect(search).toEqual({ exitCode: 0, text: "" });
    } finally {
      await sandbox.remove();
    }
  });
});
