import { describe, expect, test } from "vitest";
import { findSleeps } from "./fixtures/process-tree.ts";
import { confineCommand, detectPidNamespace, killProcessTree } from "./process-tree.ts";

// Each test's sleeps carry a unique extra argument (`sleep 300 0.00042` sleeps 300.00042 s), so we only ever look at
// (and count) processes this test started, never another engineer's `sleep 300`.
function uniqueToken(): string {
  return `0.${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
}

function sleepsWith(token: string): Promise<number[]> {
  return findSleeps(["300", token]);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await Bun.sleep(50);
  }
  return check();
}

/** bash → `setsid sleep` (own session, still bash's child) + a double-forked `setsid sleep` (reparented away) + `sleep`. */
function treeScript(token: string): string {
  return `setsid sleep 300 ${token} & (setsid sleep 300 ${token} &) ; sleep 300 ${token}`;
}

const namespaceAvailable = (await detectPidNamespace()) !== null;

describe("killProcessTree", () => {
  // Needs root or unprivileged user namespaces; skipped (visibly) where neither exists.
  test.skipIf(!namespaceAvailable)(
    "PID namespace: killing only the wrapper takes every detached grandchild",
    async () => {
      const token = uniqueToken();
      const { argv, confinement } = await confineCommand(["bash", "-c", treeScript(token)]);
      expect(confinement).toBe("pid-namespace");
      const child = Bun.spawn(argv, { stdio: ["ignore", "ignore", "ignore"] });
      expect(await waitFor(async () => (await sleepsWith(token)).length === 3)).toBe(true);

      // No tree walk here: the namespace alone must do it.
      process.kill(child.pid, "SIGKILL");
      await child.exited;

      expect(await waitFor(async () => (await sleepsWith(token)).length === 0)).toBe(true);
    },
  );

  test.skipIf(!namespaceAvailable)("PID namespace + killProcessTree", async () => {
    const token = uniqueToken();
    const { argv } = await confineCommand(["bash", "-c", treeScript(token)]);
    const child = Bun.spawn(argv, { stdio: ["ignore", "ignore", "ignore"] });
    expect(await waitFor(async () => (await sleepsWith(token)).length === 3)).toBe(true);

    await killProcessTree({ pid: child.pid });
    await child.exited;

    expect(await waitFor(async () => (await sleepsWith(token)).length === 0)).toBe(true);
  });

  test("/proc walk with a marker: kills the setsid grandchild and the reparented stray", async () => {
    const token = uniqueToken();
    const marker = `OPENEVAL_TREE_TEST=${token}`;
    const { argv, confinement } = await confineCommand(["bash", "-c", treeScript(token)], { preferNamespace: false });
    expect(confinement).toBe("proc-walk");
    const child = Bun.spawn(argv, {
      stdio: ["ignore", "ignore", "ignore"],
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", OPENEVAL_TREE_TEST: token },
    });
    expect(await waitFor(async () => (await sleepsWith(token)).length === 3)).toBe(true);

    const killed = await killProcessTree({ pid: child.pid, marker });
    await child.exited;

    expect(killed).toContain(child.pid);
    expect(await waitFor(async () => (await sleepsWith(token)).length === 0)).toBe(true);
  });

  test("/proc walk without a marker still gets the setsid grandchild (it keeps its parent)", async () => {
    const token = uniqueToken();
    const { argv } = await confineCommand(["bash", "-c", `setsid sleep 300 ${token} & sleep 300 ${token}`], {
      preferNamespace: false,
    });
    const child = Bun.spawn(argv, { stdio: ["ignore", "ignore", "ignore"] });
    expect(await waitFor(async () => (await sleepsWith(token)).length === 2)).toBe(true);

    await killProcessTree({ pid: child.pid });
    await child.exited;

    expect(await waitFor(async () => (await sleepsWith(token)).length === 0)).toBe(true);
  });
});
