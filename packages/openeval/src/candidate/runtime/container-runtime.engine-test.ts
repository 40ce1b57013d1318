// The container backend keeps the candidate runtime contract on a real engine (`npm run test:containers`), from the
// candidate image (built when missing).
import { beforeAll, describe, it } from "vitest";
import { engineAddress, isEngineReachable, openSandboxEngine } from "../../sandbox/index.ts";
import { buildCandidateImage } from "../candidate-image.ts";
import { containerRuntime } from "./container-runtime.ts";
import { describeRuntimeContract } from "./runtime-contract.case.ts";

const reachable = await isEngineReachable();

if (reachable) {
  beforeAll(async () => {
    await buildCandidateImage({
      onProgress: (event) => event.kind === "phase" && console.error(`[candidate image] ${event.message}`),
    });
  }, 1_800_000);
  describeRuntimeContract(`container on ${engineAddress()}`, {
    backend: containerRuntime,
    leftovers: async (evalRunId) => (await openSandboxEngine("container")).list({ "openeval.eval-run": evalRunId }),
  });
} else {
  describe("candidate runtime contract: container", () => {
    it.skip(`needs a container engine at ${engineAddress()}; start one with \`sudo bash .ci/setup-container-engine.sh\``, () => {});
  });
}
