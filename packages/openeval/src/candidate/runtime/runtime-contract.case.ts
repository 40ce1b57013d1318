// The one contract every candidate runtime keeps, run by a test per backend (process in `npm test`, container under
// vitest.containers.config.ts): eval.ts prepare runs where the agent will run and its result is back on this
// machine, a failing step is a preparation failure rather than an error, and closing leaves nothing behind.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import type { BenchmarkSettings, PrepareStep } from "../../load/index.ts";
import { prepareWorkspace } from "../prepare-workspace.ts";
import type { EngineOptions } from "../../sandbox/index.ts";
import type { CandidateRuntime, CandidateRuntimeBackend } from "./candidate-runtime.ts";

export interface RuntimeContractFixture {
  backend: CandidateRuntimeBackend;
  /** The engine the backend runs on (one engine of a pool, known once the suite starts); default DOCKER_HOST or the local socket. */
  engine?: () => EngineOptions;
  /** What the backend's sandboxes of an eval run still hold on their engine (ids); none on this machine. */
  leftovers(evalRunId: string): Promise<string[]>;
}

/** benchmark.ts `candidate` with nothing set: the backend's defaults (limits, no network beyond the provider). */
const CANDIDATE: BenchmarkSettings["candidate"] = { timeoutMs: 60_000, providers: {} };

export function describeRuntimeContract(name: string, fixture: RuntimeContractFixture): void {
  describe(`candidate runtime contract: ${name}`, () => {
    const opened: CandidateRuntime[] = [];
    afterAll(async () => {
      for (const runtime of opened) await runtime.close();
    });

    /** A runtime for a fresh eval run whose workspace (in its scratch folder) holds one seed file. */
    async function open() {
      const scratch = await makeTempDir("openeval-runtime-");
      const workspace = join(scratch, "workspace");
      await mkdir(workspace, { recursive: true });
      await writeFile(join(workspace, "seed.txt"), "seed\n");
      const evalRunId = `er_contract_${randomBytes(4).toString("hex")}`;
      const logs = join(scratch, "logs");
      const pinned = await fixture.backend.pin(fixture.engine?.() ?? {});
      const options = {
        runId: "run_contract",
        evalRunId,
        scratch,
        workspace,
        logs,
        timeoutMs: 60_000,
        preparationMs: 60_000,
        candidate: CANDIDATE,
        endpoint: null,
        secrets: [],
        pinned,
        solution: null,
      };
      const runtime = await fixture.backend.open(options);
      opened.push(runtime);
      const prepare = (steps: PrepareStep[]) =>
        runtime.prepare(workspace, (runStep) =>
          prepareWorkspace(steps, {
            workspace,
            env: {},
            secrets: [],
            logFile: join(logs, "prepare.log"),
            logPath: "logs/prepare.log",
            runStep,
          }),
        );
      return { runtime, workspace, evalRunId, logs, prepare };
    }

    it("runs eval.ts prepare where the agent will run, and the prepared workspace is back on this machine", async () => {
      const { workspace, logs, prepare } = await open();
      expect(
        await prepare([{ cwd: ".", argv: ["sh", "-c", "echo prepared > made.txt && cp seed.txt copy.txt"] }]),
      ).toBeNull();
      expect(await readFile(join(workspace, "made.txt"), "utf8")).toBe("prepared\n");
      expect(await readFile(join(workspace, "copy.txt"), "utf8")).toBe("seed\n");
      expect(await readFile(join(logs, "prepare.log"), "utf8")).toContain("[exited 0");
    });

    it("returns a failing prepare step as a preparation failure with its exit code and output, not an error", async () => {
      const { prepare } = await open();
      const failure = await prepare([{ cwd: ".", argv: ["sh", "-c", "echo cannot build >&2; exit 7"] }]);
      expect(failure?.preparation).toMatchObject({ step: 1, exitCode: 7, timedOut: false, outputTail: "cannot build" });
    });

    it("copies a workspace within its limits back whole, and leaves nothing behind once closed (close is idempotent)", async () => {
      const { runtime, workspace, evalRunId, prepare } = await open();
      expect(await prepare([{ cwd: ".", argv: ["true"] }])).toBeNull();
      expect(runtime.notCopied(workspace)).toEqual([]);
      await runtime.close();
      await runtime.close();
      expect(await fixture.leftovers(evalRunId)).toEqual([]);
    });
  });
}
