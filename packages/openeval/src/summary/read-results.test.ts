// Reading a run made in containers needs only its records: the candidate and verification image ids its fingerprints
// were made with are the ones its runner recorded, so no engine is asked — with none answering, the numbers stand.
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { planSlots } from "../plan/index.ts";
import { recordRuntimeIdentity, ResultsStore, toSlotKey } from "../records/index.ts";
import { readResults } from "./read-results.ts";

const IMAGE_1 = `sha256:${"1".repeat(64)}`;
const IMAGE_2 = `sha256:${"2".repeat(64)}`;
let savedHost: string | undefined;

beforeEach(async () => {
  savedHost = process.env.DOCKER_HOST;
  process.env.DOCKER_HOST = `unix://${join(await makeTempDir(), "no-engine.sock")}`;
});

afterEach(() => {
  if (savedHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = savedHost;
});

/**
 * A run of one model in containers whose judge verifies, recorded as a runner planned it with IMAGE_1 for both images;
 * `recordsIdentity: false`, as a runner did before it recorded them.
 */
async function containerRun(recordsIdentity = true): Promise<string> {
  const benchmark = await loadBenchmark(
    await writeTree(
      minimalBenchmark({
        "benchmark.ts": 'export default { models: ["p/m"], repetitions: 1, candidate: { isolation: "container" } };\n',
        "evals/answer/judge.ts":
          "export default async ({ verification }) => ({ scores: { correct: verification !== undefined } });\n",
      }),
    ),
  );
  const store = ResultsStore.open(join(await makeTempDir(), "run"), { create: true });
  try {
    store.writeRun({
      id: "r",
      name: "c",
      benchmarkDirectory: benchmark.directory,
      createdAt: "2026-12-01T10:00:00.000Z",
      opencodeVersion: "1.18.33",
      models: ["p/m"],
      repetitions: 1,
      evals: ["answer"],
    });
    const [slot] = planSlots(
      benchmark,
      { evalRuns: [], judgeRuns: [] },
      {},
      () => IMAGE_1,
      () => ({ isolation: "container", image: IMAGE_1 }),
    ).slots;
    const time = { startedAt: "2026-12-01T10:00:00.000Z", completedAt: "2026-12-01T10:00:01.000Z", elapsedMs: 1000 };
    store.saveEvalRun({
      id: "eval_1",
      runId: "r",
      slot: toSlotKey(slot!),
      control: false,
      state: "completed",
      infrastructureError: false,
      error: null,
      ...time,
      input: {
        candidateFingerprint: slot!.candidateFingerprint,
        prompt: "p",
        timeoutMs: 1,
        maxCostUSD: null,
        opencodeVersion: "1.18.33",
        isolation: "container",
      },
      evidence: null,
      metrics: null,
    });
    store.saveJudgeRun({
      id: "judge_1",
      runId: "r",
      evalRunId: "eval_1",
      slot: toSlotKey(slot!),
      kind: "code",
      state: "completed",
      judgeFingerprint: slot!.judgeFingerprint,
      ...time,
      scores: { correct: { value: 1, source: "judge.ts" } },
      unscored: false,
      error: null,
      directory: "judge-runs/judge_1",
    });
    if (recordsIdentity) recordRuntimeIdentity(store, { candidateImage: IMAGE_1, verificationImage: IMAGE_1 });
    return store.directory;
  } finally {
    store.close();
  }
}

function appendIdentity(directory: string, identity: Parameters<typeof recordRuntimeIdentity>[1]): void {
  const store = ResultsStore.open(directory);
  recordRuntimeIdentity(store, identity);
  store.close();
}

describe("readResults of a run made in containers", () => {
  it("compares with the image ids its runner recorded, with no engine answering", async () => {
    const results = await readResults(await containerRun());
    expect({ complete: results.complete, open: results.open, warnings: results.warnings }).toEqual({
      complete: true,
      open: [],
      warnings: [],
    });
    expect(results.models.map((model) => [model.model, model.score.value, model.unsandboxed])).toEqual([
      ["p/m", 100, false],
    ]);
  });

  it("plans the candidate again once a runner recorded another candidate image, and the judging once it recorded another verification image", async () => {
    const candidate = await containerRun();
    appendIdentity(candidate, { candidateImage: IMAGE_2 });
    expect((await readResults(candidate)).open.map((entry) => entry.action)).toEqual(["candidate"]);
    const verification = await containerRun();
    appendIdentity(verification, { verificationImage: IMAGE_2 });
    expect((await readResults(verification)).open.map((entry) => entry.action)).toEqual(["judge"]);
  });

  it("says so when the run recorded no image ids (made before they were recorded)", async () => {
    const results = await readResults(await containerRun(false));
    expect(results.complete).toBe(false);
    expect(results.warnings).toEqual([
      "this run recorded no image ids (it predates them): its candidates in containers and judges that verify are compared with no image, so their work is not reused; `openeval run --run <this run> --offline` records the images the engine holds now",
    ]);
  });
});
