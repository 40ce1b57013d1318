import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { AtifTrajectorySchema } from "../recording/index.ts";
import { recordRedactions, ResultsStore, toRedactionEntries } from "../records/index.ts";
import { CHILD_SESSION, writeNativeFixtureRecording } from "../recording/fixtures/native-recording.ts";
import { exportAtif, type ExportAtifResult } from "./export-atif.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

// Planted credentials: one only the run's redaction list knows (by hash), one recognizable by its shape.
const ENV_SECRET = "planted-env-credential-7f3a9c21";
const SHAPED_SECRET = "sk-ant-api03-PLANTEDplanted0123456789";
const NATIVE_EVAL_RUN = "eval_native-0000-4000-8000-000000000000";
const UNRECORDED_EVAL_RUN = "eval_failed-0000-4000-8000-000000000000";

let fixture: ViewerFixture;
let output: string;
let result: ExportAtifResult;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 1,
    models: ["provider/alpha", "control/negative"],
    repetitions: 1,
    secret: `${ENV_SECRET} ${SHAPED_SECRET}`,
  });
  await addNativeEvalRun(fixture);
  await recordRedactions(
    fixture.runDirectory,
    toRedactionEntries([{ value: ENV_SECRET, source: "env SOME_PROVIDER_API_KEY" }]),
  );
  output = join(await makeTempDir(), "atif");
  result = await exportAtif({ run: fixture.runDirectory, output });
});

/** One more eval run whose recording is of an OpenCode session (with a subagent), holding the planted secret. */
async function addNativeEvalRun(fixture: ViewerFixture): Promise<void> {
  const evidence = await writeNativeFixtureRecording(join(fixture.runDirectory, "eval-runs", "native"), {
    secret: ENV_SECRET,
  });
  const store = ResultsStore.open(fixture.runDirectory);
  try {
    const model = fixture.evalRuns[0]!;
    store.saveEvalRun({
      ...model,
      id: NATIVE_EVAL_RUN,
      slot: { ...model.slot, repetition: 2 },
      evidence: { directory: relative(fixture.runDirectory, evidence.directory), hash: evidence.hash },
    });
    // An infrastructure failure before OpenCode started: nothing was recorded.
    store.saveEvalRun({
      ...model,
      id: UNRECORDED_EVAL_RUN,
      slot: { ...model.slot, repetition: 3 },
      state: "failed",
      infrastructureError: true,
      error: "the sandbox could not start",
      evidence: null,
      metrics: null,
    });
  } finally {
    store.close();
  }
}

function files(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".json"));
}

describe("exportAtif", () => {
  it("writes one folder per eval run with a valid trajectory, and lists them in openeval-atif.json", () => {
    const ids = [...fixture.evalRuns.map((evalRun) => evalRun.id), NATIVE_EVAL_RUN];
    expect(result.trajectories.map((entry) => entry.evalRunId).sort()).toEqual(ids.sort());
    expect(result.skipped).toEqual([{ evalRunId: UNRECORDED_EVAL_RUN, reason: "no recording (state failed)" }]);
    for (const entry of result.trajectories) {
      const trajectory = AtifTrajectorySchema.parse(JSON.parse(readFileSync(join(output, entry.path), "utf8")));
      expect(trajectory.steps).toHaveLength(entry.steps);
    }
    const marker = JSON.parse(readFileSync(join(output, "openeval-atif.json"), "utf8"));
    expect(marker).toMatchObject({ format: "openeval.atif-export", schemaVersion: "ATIF-v1.4", runId: fixture.runId });
    expect(marker.trajectories).toHaveLength(ids.length);
    expect(marker.skipped).toEqual(result.skipped);
  });

  it("writes a subagent's trajectory where its reference points", () => {
    const native = result.trajectories.find((entry) => entry.evalRunId === NATIVE_EVAL_RUN)!;
    expect(native.subagents).toEqual([`${NATIVE_EVAL_RUN}/subagents/${CHILD_SESSION}.json`]);
    const root = JSON.parse(readFileSync(join(output, native.path), "utf8"));
    const ref = root.steps[2].observation.results[1].subagent_trajectory_ref[0];
    const child = AtifTrajectorySchema.parse(
      JSON.parse(readFileSync(join(output, NATIVE_EVAL_RUN, ref.trajectory_path), "utf8")),
    );
    expect(child.session_id).toBe(ref.session_id);
  });

  it("carries no credential and no host path", () => {
    const written = files(output).map((name) => readFileSync(join(output, name), "utf8"));
    expect(written.length).toBeGreaterThan(3);
    for (const text of written) {
      expect(text).not.toContain(ENV_SECRET);
      expect(text).not.toContain(SHAPED_SECRET);
      expect(text).not.toContain(fixture.benchmarkDirectory);
    }
    // The secrets were there to remove: in the answer of the constructed recordings, in a tool output of the native one.
    expect(written.join("\n")).toContain("[REDACTED]");
  });

  it("replaces an earlier ATIF export, and refuses a folder that is not one", async () => {
    const again = await exportAtif({ run: fixture.runDirectory, output });
    expect(again.trajectories).toHaveLength(result.trajectories.length);
    const other = await makeTempDir();
    await writeFile(join(other, "notes.txt"), "mine");
    await expect(exportAtif({ run: fixture.runDirectory, output: other })).rejects.toThrow(
      /is not empty and is not an earlier openeval export; pass a new or empty folder to --output/,
    );
    expect(existsSync(join(other, "notes.txt"))).toBe(true);
  });
});
