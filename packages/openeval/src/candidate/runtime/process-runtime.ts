// The `process` backend: the candidate runs on this machine as the current user, confined by runOpenCode's own
// process tree (a PID namespace where allowed); prepare steps run on the host, and checkpoints read the live files.
import { checkpointOf } from "../checkpoint.ts";
import { hostStepRunner } from "../prepare-workspace.ts";
import type { CandidateRuntimeBackend } from "./candidate-runtime.ts";

export const processRuntime: CandidateRuntimeBackend = {
  pin: async () => ({ image: null }),
  // Its processes die with their runner (tied to it, and swept by marker).
  reapOrphans: async () => {},
  open: async ({ evalRunId, pinned }) => ({
    layWorkspace: (lay) => {
      if (pinned.environment)
        throw new Error("An eval with its own environment runs in a container; the process backend cannot run it");
      return lay();
    },
    prepare: (_workspace, body) => body(hostStepRunner(evalRunId)),
    agent: {},
    checkpoint: checkpointOf,
    notCopied: () => [],
    close: async () => {},
    refusedConnections: async () => null,
  }),
};
