// The sandbox contract on a real container engine (`npm run test:containers`); skips, saying why, without one.
import Docker from "dockerode";
import { describe, it } from "vitest";
import { describeSandboxContract } from "../sandbox-contract.case.ts";
import { openSandboxEngine } from "../engines.ts";
import { engineAddress, isEngineReachable } from "./engine.ts";

const reachable = await isEngineReachable();
/** The local base image the project's images are built FROM: has sh, coreutils and setsid, and no /work. */
const BASE_IMAGE = process.env.OPENEVAL_BASE_IMAGE ?? "debian:bookworm-slim";

async function alive(sandbox: { id: string }): Promise<boolean> {
  const info = await new Docker({ socketPath: "/var/run/docker.sock" })
    .getContainer(sandbox.id)
    .inspect()
    .catch(() => null);
  return info?.State.Running ?? false;
}

if (reachable) {
  describeSandboxContract(`container engine at ${engineAddress()}`, {
    engine: () => openSandboxEngine("container"),
    spec: async () => ({ image: BASE_IMAGE }),
    alive,
  });
} else {
  describe("container engine", () =>
    it.skip(`SKIPPED: no container engine answers at ${engineAddress()}; start one with \`sudo bash .ci/setup-container-engine.sh\` (or set DOCKER_HOST)`, () => {}));
}
