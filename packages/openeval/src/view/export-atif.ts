// `openeval export --format atif`: each eval run's recording as Harbor trajectories (ATIF), one folder per eval run as
// Harbor keeps one per trial: <eval run id>/trajectory.json, its subagents under subagents/. Every file is scrubbed as
// the viewer export is (credentials by the run's redaction list and by shape, host paths) and validated against the
// schema before it is written. openeval-atif.json lists what was written and the eval runs without a recording.
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import {
  ATIF_SCHEMA_VERSION,
  AtifTrajectorySchema,
  EvidenceError,
  readRecording,
  toAtifTrajectories,
  type AtifTrajectory,
} from "../recording/index.ts";
import { readRedactionList, ResultsStore, type EvalRun } from "../records/index.ts";
import { describeState } from "../util/words.ts";
import { ExportError } from "./errors.ts";
import { createScrubber, hostPaths, type Scrubber } from "./scrub.ts";

const MARKER = "openeval-atif.json";

export interface ExportAtifOptions {
  /** The run directory (results/<run-id>). */
  run: string;
  /** Created, or an earlier ATIF export replaced; any other non-empty folder is refused. */
  output: string;
  /** More values to remove, besides those on the run's redaction list. */
  secrets?: string[];
  onProgress?: (done: number, total: number) => void;
}

export interface ExportedTrajectory {
  evalRunId: string;
  evalId: string;
  case?: string;
  model: string;
  variant: string;
  repetition: number;
  /** The root trajectory, relative to the export folder. */
  path: string;
  steps: number;
  subagents: string[];
}

export interface ExportAtifResult {
  directory: string;
  runId: string;
  trajectories: ExportedTrajectory[];
  /** Eval runs with no readable recording (an infrastructure failure, a recording that fails its check), and why. */
  skipped: { evalRunId: string; reason: string }[];
}

/**
 * @example
 * const { trajectories } = await exportAtif({ run: "results/2026-11-29T21-40-00.000Z-1a2b3c4d", output: "atif" });
 */
export async function exportAtif(options: ExportAtifOptions): Promise<ExportAtifResult> {
  const output = resolve(options.output);
  const runDirectory = resolve(options.run);
  const runId = basename(runDirectory);
  const { benchmarkDirectory, evalRuns } = readRun(runDirectory);
  await prepareOutput(output);
  const scrubber = createScrubber({
    paths: hostPaths(runDirectory, benchmarkDirectory),
    secrets: options.secrets ?? [],
    redactions: readRedactionList(runDirectory),
  });
  const trajectories: ExportedTrajectory[] = [];
  const skipped: ExportAtifResult["skipped"] = [];
  for (const [index, evalRun] of evalRuns.entries()) {
    if (!evalRun.evidence)
      skipped.push({ evalRunId: evalRun.id, reason: `no recording (state ${describeState(evalRun.state)})` });
    else {
      try {
        trajectories.push(await exportEvalRun(runDirectory, evalRun, output, scrubber));
      } catch (error) {
        if (!(error instanceof EvidenceError)) throw error;
        skipped.push({ evalRunId: evalRun.id, reason: scrubber.text(error.message) });
      }
    }
    options.onProgress?.(index + 1, evalRuns.length);
  }
  const marker = {
    format: "openeval.atif-export",
    version: 1,
    schemaVersion: ATIF_SCHEMA_VERSION,
    runId,
    exportedAt: new Date().toISOString(),
    trajectories,
    skipped,
  };
  await writeFile(join(output, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  return { directory: output, runId, trajectories, skipped };
}

function readRun(runDirectory: string): { benchmarkDirectory: string; evalRuns: EvalRun[] } {
  const store = ResultsStore.open(runDirectory, { readonly: true });
  try {
    return { benchmarkDirectory: store.readRun().benchmarkDirectory, evalRuns: store.evalRuns() };
  } finally {
    store.close();
  }
}

async function exportEvalRun(
  runDirectory: string,
  evalRun: EvalRun,
  output: string,
  scrubber: Scrubber,
): Promise<ExportedTrajectory> {
  await using ctx = await readRecording(runDirectory, evalRun.id);
  const { root, subagents } = await toAtifTrajectories(ctx);
  const folder = join(output, evalRun.id);
  await writeTrajectory(join(folder, "trajectory.json"), root, scrubber);
  for (const subagent of subagents) await writeTrajectory(join(folder, subagent.path), subagent.trajectory, scrubber);
  return {
    evalRunId: evalRun.id,
    evalId: evalRun.slot.evalId,
    ...(evalRun.slot.case === undefined ? {} : { case: evalRun.slot.case }),
    model: evalRun.slot.model,
    variant: evalRun.slot.variant,
    repetition: evalRun.slot.repetition,
    path: `${evalRun.id}/trajectory.json`,
    steps: root.steps.length,
    subagents: subagents.map((subagent) => `${evalRun.id}/${subagent.path}`),
  };
}

/** Scrubbed as JSON text (so a secret inside any string goes), then checked: what is written is valid ATIF. */
async function writeTrajectory(path: string, trajectory: AtifTrajectory, scrubber: Scrubber): Promise<void> {
  const scrubbed = AtifTrajectorySchema.parse(JSON.parse(scrubber.text(JSON.stringify(trajectory))));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(scrubbed, null, 2)}\n`);
}

/** A new or empty folder, or an earlier ATIF export: its trajectories and marker are removed, nothing else. */
async function prepareOutput(output: string): Promise<void> {
  if (existsSync(output) && readdirSync(output).length > 0) {
    const marker = join(output, MARKER);
    if (!existsSync(marker)) throw new ExportError("targetNotEmpty", { output });
    const earlier = JSON.parse(await readFile(marker, "utf8")) as { trajectories?: { evalRunId?: unknown }[] };
    for (const entry of earlier.trajectories ?? [])
      if (typeof entry.evalRunId === "string" && /^[\w.-]+$/.test(entry.evalRunId))
        await rm(join(output, entry.evalRunId), { recursive: true, force: true });
    await rm(marker, { force: true });
  }
  await mkdir(output, { recursive: true });
}
