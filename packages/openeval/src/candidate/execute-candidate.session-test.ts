// One eval run with real OpenCode 1.18.33 against a scripted control on 127.0.0.1, watched by a monitor as earlyStop
// watches it: boundaries arrive while it runs, a checkpoint of the live session is a verified recording, and
// aborting `stop` ends the run as `stopped` with its recording kept.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import { openEvidence, type EvidenceRef } from "../recording/index.ts";
import type { EarlyCheck, EvalRun } from "../records/index.ts";
import { executeCandidate, type CandidateMonitor } from "./execute-candidate.ts";

// Never ends by itself: a control repeats its last turn.
const endless = {
  turns: [
    { tools: [{ name: "bash", input: { command: "echo step >> notes.txt", description: "note" } }], delayMs: 200 },
  ],
};

let server: ControlServer;
let benchmark: BenchmarkDefinition;

beforeAll(async () => {
  server = await startControlServer({ controls: { notes: { endless } } });
  benchmark = await loadBenchmark(
    await writeTree({
      "benchmark.ts": `export default { models: ["control/endless"], repetitions: 1, judge: { model: "control/judge" }, candidate: { timeoutMs: 120_000 } };\n`,
      "evals/notes/prompt.md": "Keep appending to notes.txt.\n",
      "evals/notes/judge.md": "# Notes\n\n## Criterion: kept — Kept notes\n\nnotes.txt grows.\n",
      "evals/notes/controls/endless.json": JSON.stringify(endless),
    }),
  );
});

afterAll(async () => {
  await server?.close();
});

describe("executeCandidate with a monitor", { timeout: 150_000 }, () => {
  it("reports boundaries, checkpoints the live session, and ends as stopped when the monitor stops it", async () => {
    const runDirectory = await makeTempDir();
    const stop = new AbortController();
    const checkpoints: EvidenceRef[] = [];
    let boundaries = 0;
    let finished = 0;
    const monitor: CandidateMonitor = {
      stop: stop.signal,
      onBoundary(take) {
        boundaries++;
        // Two tool calls in, snapshot the running session once, then stop it.
        if (boundaries !== 2) return;
        void take(join(runDirectory, "checks", "1", "evidence")).then((checkpoint) => {
          checkpoints.push(checkpoint);
          stop.abort();
        });
      },
      async finish(): Promise<EarlyCheck[]> {
        finished++;
        return [];
      },
    };
    const saved: EvalRun[] = [];
    const evalRun = await executeCandidate({
      runId: "r",
      runDirectory,
      evalRunId: "eval_watched",
      isolation: "process",
      pinned: { image: null },
      slot: { evalId: "notes", model: "control/endless", variant: "current", repetition: 1 },
      evaluation: benchmark.evals[0]!,
      settings: benchmark.settings,
      candidateFingerprint: "f",
      controlBaseURL: server.baseURL("notes"),
      monitor,
      save: (record) => void saved.push(record),
    });

    expect(evalRun.error).toMatch(/^Stopped early/);
    expect(evalRun).toMatchObject({ state: "stopped", infrastructureError: false, earlyStop: { checks: [] } });
    expect(finished).toBeGreaterThanOrEqual(1);
    expect(checkpoints).toHaveLength(1);

    // The checkpoint is a verified recording of the session as it was: fewer tool calls than the final one.
    const checkpoint = await openEvidence(checkpoints[0]!.directory, checkpoints[0]!.hash);
    const final = await openEvidence(join(runDirectory, evalRun.evidence!.directory), evalRun.evidence!.hash);
    expect(checkpoint.manifest.kind).toBe("checkpoint");
    expect(checkpoint.manifest.tools.length).toBeGreaterThanOrEqual(1);
    expect(checkpoint.manifest.tools.length).toBeLessThanOrEqual(final.manifest.tools.length);
    expect(checkpoint.manifest.native?.rootSessionID).toBe(final.manifest.native?.rootSessionID);
    expect(await checkpoint.text("notes.txt")).toMatch(/^(step\n)+$/);
    expect(saved.map((record) => record.state)).toEqual(["running", "stopped"]);
  });
});
