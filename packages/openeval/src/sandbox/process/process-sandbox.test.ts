// The sandbox contract on the process engine, once with a PID namespace (when this machine allows one) and once
// with the /proc walk that finds detached processes by the sandbox's marker.
import { expect, test } from "vitest";
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import { findSleeps } from "../fixtures/process-tree.ts";
import { describeSandboxContract } from "../sandbox-contract.case.ts";
import { createProcessEngine } from "./process-sandbox.ts";

const directory = await makeTempDir("openeval-sandbox-contract-");
const alive = async (_: unknown, token: string) => (await findSleeps(["300", token])).length > 0;

describeSandboxContract("process engine (PID namespace when available)", { engine: async () => createProcessEngine({ directory }), spec: async () => ({}), alive });
describeSandboxContract("process engine (/proc walk)", { engine: async () => createProcessEngine({ directory, pidNamespace: false }), spec: async () => ({}), alive });

test("refuses to run a command as another user, naming it", async () => {
  const sandbox = await createProcessEngine({ directory }).create({ labels: {}, folders: ["/work"], workdir: "/work", limits: { cpus: 1, memoryMiB: 256, pids: 64, tmpMiB: 16 }, lifetimeMs: 60_000 });
  const other = { uid: (process.getuid?.() ?? 0) + 1, gid: 0 };
  try {
    await expect(sandbox.run(["true"], { deadline: Date.now() + 10_000, user: other })).rejects.toThrow(`only as this user, not as ${other.uid}:0; use the container engine`);
  } finally {
    await sandbox.remove();
  }
});
