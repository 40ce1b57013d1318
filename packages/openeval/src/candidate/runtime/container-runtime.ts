// The `container` backend: the candidate runs in its container pair (candidate + egress proxy) on an engine, from
// the pinned candidate image, labelled with its run and eval run for reaping; checkpoints copy its live files out.
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { redactBytes } from "../../opencode/index.ts";
import { openSandboxEngine } from "../../sandbox/index.ts";
import { createScratchDir, removeScratchDir } from "../../util/scratch-dir.ts";
import { resolveCandidateImage } from "../candidate-image.ts";
import { checkpointOf, type LiveCandidate, type TakeCheckpoint } from "../checkpoint.ts";
import { openCandidateContainer, type CandidateContainer } from "../container/candidate-container.ts";
import { planEgress, refusedConnections } from "../container/egress.ts";
import { environmentLayout, STANDARD_LAYOUT } from "../container/container-layout.ts";
import type {
  CandidateRuntime,
  CandidateRuntimeBackend,
  OpenRuntimeOptions,
  RuntimeEnvironment,
} from "./candidate-runtime.ts";

/** The roles of what a candidate leaves on the engine: its container, its egress proxy and their shared volume. */
const CANDIDATE_ROLES = ["candidate", "egress-proxy", "egress"];

export const containerRuntime: CandidateRuntimeBackend = {
  pin: async (engine) => {
    const { imageId } = await resolveCandidateImage(engine);
    return { image: imageId, engine };
  },
  // Whichever run they belonged to, those whose runner died (owner gone) go; a live run's stay.
  reapOrphans: async (engineOptions) => {
    try {
      const engine = await openSandboxEngine("container", { container: engineOptions });
      for (const role of CANDIDATE_ROLES) await engine.reap({ "openeval.sandbox": role }, { orphansOnly: true });
    } catch {
      // No engine now: nothing of ours can be running there either.
    }
  },
  open: openContainerRuntime,
};

async function openContainerRuntime(options: OpenRuntimeOptions): Promise<CandidateRuntime> {
  const { image, engine, environment } = options.pinned;
  if (!image)
    throw new Error("container isolation needs the candidate image; run/ resolves it before any candidate starts");
  const logFile = join(options.logs, "egress.log");
  await mkdir(dirname(logFile), { recursive: true });
  const log = Bun.file(logFile).writer();
  const container = await openCandidateContainer({
    evalRunId: options.evalRunId,
    image,
    layout: environment ? environmentLayout(environment, { solution: options.solution !== null }) : STANDARD_LAYOUT,
    engine: engine ?? {},
    scratch: options.scratch,
    workspace: options.workspace,
    solution: options.solution,
    limits: { ...options.candidate.container, ...environmentLimits(environment) },
    labels: { "openeval.run": options.runId, "openeval.eval-run": options.evalRunId },
    egress: planEgress(options.endpoint, options.candidate.network?.allow ?? []),
    timeoutMs: options.timeoutMs,
    preparationMs: options.preparationMs,
    egressLog: { write: (chunk) => void log.write(redactBytes(chunk, options.secrets)) },
  });
  let closed = false;
  return {
    layWorkspace: container.layWorkspace,
    prepare: container.prepare,
    agent: { launch: container.launch, sharedFolders: container.sharedFolders, seenAs: container.seenAs },
    checkpoint: (live) => checkpointInContainer(live, container.copyLive, options.evalRunId),
    notCopied: container.notCopied,
    close: async () => {
      await container.close();
      if (!closed) await log.end();
      closed = true;
    },
    refusedConnections: async () => {
      const written = Bun.file(logFile);
      return (await written.exists()) ? refusedConnections(await written.text()) : [];
    },
  };
}

/** The eval's own CPUs and memory (task.toml's), over benchmark.ts's. */
function environmentLimits(environment: RuntimeEnvironment | undefined) {
  const { cpus, memoryMiB } = environment?.limits ?? {};
  return { ...(cpus !== undefined ? { cpus } : {}), ...(memoryMiB !== undefined ? { memoryMiB } : {}) };
}

/** A checkpoint of a candidate in a container: its live files are copied to a scratch folder, then recorded as on the host. */
function checkpointInContainer(
  live: LiveCandidate,
  copyLive: CandidateContainer["copyLive"],
  evalRunId: string,
): TakeCheckpoint {
  return async (directory) => {
    const copy = await createScratchDir(`${evalRunId}-live`);
    try {
      const copied = await copyLive({ workspace: live.workspace, database: live.databasePath }, copy);
      return await checkpointOf({ ...live, workspace: copied.workspace, databasePath: copied.database })(directory);
    } finally {
      await removeScratchDir(copy);
    }
  };
}
