// `openeval export`: a static copy of one run that opens from disk (file://) without a server. Every answer the
// viewer would fetch is written as a data file (static-files.ts) after scrubbing credentials and host paths;
// judge-run images are copied as they are (pixels cannot be scrubbed). Workspace file contents (the files and their
// diffs) are left out unless `allowArtifacts` names them, as OpenEval's `--allow-artifact` does; the export's
// openeval-export.json and each diff say what was left out.
import { existsSync, readdirSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { EvalRunDetail, JudgeRunDetail, TranscriptMessage } from "./api-types.ts";
import type { ComparisonRequest } from "./compare-types.ts";
import { bundleViewer } from "./bundle-viewer.ts";
import { baselineFile } from "./compare-runs.ts";
import { CompareError, ExportError, UnreadableEvidenceError } from "./errors.ts";
import { RunCatalog } from "./run-catalog.ts";
import { matrixCandidates, matrixRows, toRunListItem } from "./run-index.ts";
import { readRedactionList, type Reviewer } from "../records/index.ts";
import { toSafeRelativePath } from "../util/relative-path.ts";
import { createScrubber, hostPaths, type Scrubber } from "./scrub.ts";
import { STATIC_CALLBACK, staticDataFile, staticKeys, staticRawFile } from "./static-files.ts";
import { ViewerData } from "./viewer-data.ts";

const MARKER = "openeval-export.json";
/** Workspace files shown in an export: text files up to this size, up to the budget per eval run. */
const MAX_WORKSPACE_FILE = 256 * 1024;
const WORKSPACE_BUDGET = 4 * 1024 * 1024;
const MAX_COMPARED_MODELS = 6;

export interface ExportRunOptions {
  /** The run directory (results/<run-id>). */
  run: string;
  /** The export folder: created, or a previous export replaced; any other non-empty folder is refused. */
  output: string;
  /** More values to remove, besides those on the run's redaction list (what the runner redacted when recording). */
  secrets?: string[];
  /** Workspace paths (a file, or a folder for everything under it) whose contents the export may show. */
  allowArtifacts?: string[];
  /** Keep the emails of the people who reviewed scores (`openeval review`); left out by default, their names kept. */
  reviewerEmails?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface ExportResult {
  directory: string;
  /** Open this file in a browser. */
  index: string;
  runId: string;
  files: number;
  bytes: number;
  /** Workspace files whose contents were left out, by eval run id (also in openeval-export.json). */
  leftOut: Record<string, string[]>;
}

/**
 * @example
 * const { index } = await exportRun({ run: "results/2026-11-29T21-40-00.000Z-1a2b3c4d", output: "viewer-export" });
 */
export async function exportRun(options: ExportRunOptions): Promise<ExportResult> {
  const output = resolve(options.output);
  const allowed = artifactFilter(options.allowArtifacts ?? []);
  await prepareOutput(output);
  const catalog = RunCatalog.open({ run: options.run, resultsRoot: dirname(resolve(options.run)) });
  const data = new ViewerData(catalog);
  const runId = basename(resolve(options.run));
  const index = catalog.index(runId);
  const scrubber = createScrubber({
    paths: hostPaths(index.directory, index.run.benchmarkDirectory),
    secrets: options.secrets ?? [],
    redactions: readRedactionList(index.directory),
  });
  const writer = new ExportWriter(output, scrubber);
  try {
    // Step: the app itself, in static mode.
    const assets = await bundleViewer();
    await writer.raw("index.html", assets.html({ mode: "static", title: `openeval — ${index.run.name} ${runId}` }));
    await writer.raw("app.js", assets.script);
    await writer.raw("app.css", assets.stylesheet);

    // Step: the run's lists, whole (the browser pages and filters them).
    const runs = { runs: [toRunListItem(index)], defaultRunId: runId };
    await writer.data(staticKeys.runs(), runs);
    await writer.data(staticKeys.overview(runId), await data.overview(runId));
    await writer.data(staticKeys.matrix(runId), {
      candidates: matrixCandidates(index.overview),
      rows: matrixRows(index),
    });
    await writer.data(staticKeys.evalRuns(runId), index.rows);
    await writer.data(staticKeys.queue(runId), data.queue(runId));
    for (const request of exportedComparisons(
      runId,
      index.overview.leaderboard.map((row) => row.candidate),
      existsSync(baselineFile(index.run.benchmarkDirectory)),
    )) {
      await writer.data(
        staticKeys.compare(request.a, request.b, request.modelA, request.modelB),
        await data.compare(request).catch(skipIncomparable),
      );
    }

    // Step: every eval run and judge run.
    const evalRunIds = [...index.evalRuns.keys()];
    const judgeRunIds = [...index.judgeRuns.keys()];
    const total = evalRunIds.length + judgeRunIds.length;
    let done = 0;
    const leftOut: Record<string, string[]> = {};
    for (const id of evalRunIds) {
      const omitted = await exportEvalRun(data, writer, runId, id, allowed);
      if (omitted.length > 0) leftOut[id] = omitted;
      options.onProgress?.(++done, total);
    }
    for (const id of judgeRunIds) {
      await exportJudgeRun(data, writer, runId, id, options.reviewerEmails === true);
      options.onProgress?.(++done, total);
    }
    const marker = {
      format: "openeval.export",
      version: 1,
      runId,
      exportedAt: new Date().toISOString(),
      allowedArtifacts: options.allowArtifacts ?? [],
      leftOut: { note: LEFT_OUT_NOTE, workspaceFiles: leftOut },
    };
    await writeFile(join(output, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    return {
      directory: output,
      index: join(output, "index.html"),
      runId,
      files: writer.files + 1,
      bytes: writer.bytes,
      leftOut,
    };
  } finally {
    await data.close();
  }
}

/** Comparisons an export can show without a server: against baseline.json, and between its models (every ordered
 * pair of up to MAX_COMPARED_MODELS models; beyond that, the first model against each other one). */
function exportedComparisons(runId: string, models: readonly string[], hasBaseline: boolean): ComparisonRequest[] {
  const pairs =
    models.length <= MAX_COMPARED_MODELS
      ? models.flatMap((a) => models.filter((b) => b !== a).map((b) => [a, b]))
      : models.slice(1).flatMap((b) => [
          [models[0]!, b],
          [b, models[0]!],
        ]);
  return [
    ...(hasBaseline ? [{ a: "baseline", b: runId }] : []),
    ...pairs.map(([modelA, modelB]) => ({ a: runId, b: runId, modelA, modelB })),
  ];
}

/** A pair the comparison refuses (e.g. no shared eval) is left out of the export; the page says it is not there. */
function skipIncomparable(error: unknown): null {
  if (error instanceof CompareError) return null;
  throw error;
}

const LEFT_OUT_NOTE =
  "workspace file contents are left out of exports; `openeval export --allow-artifact <path>` includes a file (or a folder)";

/** Whether a workspace path's contents may be exported; refuses a path that could not be in a workspace. */
function artifactFilter(paths: readonly string[]): (path: string) => boolean {
  const allowed = paths.map((path) => {
    try {
      return toSafeRelativePath(path);
    } catch {
      throw new ExportError("artifactNotWorkspacePath", { path });
    }
  });
  return (path) => allowed.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Exports one eval run; returns the workspace files whose contents were left out for want of --allow-artifact. */
async function exportEvalRun(
  data: ViewerData,
  writer: ExportWriter,
  runId: string,
  id: string,
  allowed: (path: string) => boolean,
): Promise<string[]> {
  const found = (await data.evalRun(runId, id))!;
  const leftOut = [
    ...new Set([
      ...found.diff.map((file) => file.path),
      ...found.files.filter((file) => file.kind === "file").map((file) => file.path),
    ]),
  ]
    .filter((path) => !allowed(path))
    .sort();
  const exported = workspaceFilesToExport(found, allowed);
  const detail: EvalRunDetail = {
    ...found,
    diff: found.diff.map((file) =>
      allowed(file.path) ? file : { ...file, patch: `(the contents of ${file.path} are left out: ${LEFT_OUT_NOTE})\n` },
    ),
    leftOut: whyLeftOut(found.files, exported, allowed),
  };
  await writer.data(staticKeys.evalRun(runId, id), detail);
  const transcripts: Record<string, TranscriptMessage[]> = {};
  for (const session of detail.sessions) {
    const page = await data.transcript(runId, id, { session: session.id, offset: 0, limit: Number.MAX_SAFE_INTEGER });
    if (page) transcripts[session.id] = page.items;
  }
  await writer.data(staticKeys.transcripts(runId, id), transcripts);
  // A recording that fails its hash check is exported with its error (evidenceError), not its contents.
  if (!detail.evidenceError)
    await writer.data(
      staticKeys.events(runId, id),
      (await data.events(runId, id, 0, Number.MAX_SAFE_INTEGER))?.items ?? [],
    );
  for (const log of detail.logs)
    await writer.data(staticKeys.evalRunLog(runId, id, log.path), await data.evalRunLog(runId, id, log.path));
  for (const [path, revision] of exported) {
    await writer.data(
      staticKeys.workspaceFile(runId, id, revision, path),
      await data.workspaceFile(runId, id, path, revision),
    );
  }
  return leftOut;
}

/** Of the allowed files: the changed ones (both sides), and small final files within the budget. */
function workspaceFilesToExport(
  detail: EvalRunDetail,
  allowed: (path: string) => boolean,
): [string, "initial" | "final"][] {
  const chosen: [string, "initial" | "final"][] = [];
  let budget = WORKSPACE_BUDGET;
  for (const diff of detail.diff.filter((file) => allowed(file.path))) {
    if (diff.status !== "added") chosen.push([diff.path, "initial"]);
    if (diff.status !== "deleted") chosen.push([diff.path, "final"]);
  }
  for (const file of detail.files) {
    if (file.kind !== "file" || !allowed(file.path) || file.bytes > MAX_WORKSPACE_FILE || file.bytes > budget) continue;
    if (chosen.some(([path, revision]) => path === file.path && revision === "final")) continue;
    budget -= file.bytes;
    chosen.push([file.path, "final"]);
  }
  return chosen;
}

/** Why each file of the final workspace the export does not hold is left out, for the Files tab. */
function whyLeftOut(
  files: EvalRunDetail["files"],
  exported: readonly [string, "initial" | "final"][],
  allowed: (path: string) => boolean,
): Record<string, string> {
  const held = new Set(exported.filter(([, revision]) => revision === "final").map(([path]) => path));
  const reasons: Record<string, string> = {};
  for (const file of files) {
    if (held.has(file.path)) continue;
    reasons[file.path] = !allowed(file.path)
      ? LEFT_OUT_NOTE
      : file.kind === "symlink"
        ? `it is a symbolic link (to ${file.target}); an export holds the contents of files only`
        : file.bytes > MAX_WORKSPACE_FILE
          ? `it is larger than ${MAX_WORKSPACE_FILE / 1024} KiB, the most an export holds of one workspace file`
          : `the export holds at most ${WORKSPACE_BUDGET / 1024 / 1024} MiB of one eval run's workspace files`;
  }
  return reasons;
}

async function exportJudgeRun(
  data: ViewerData,
  writer: ExportWriter,
  runId: string,
  id: string,
  reviewerEmails: boolean,
): Promise<void> {
  const detail = (await data.judgeRun(runId, id))!;
  await writer.data(staticKeys.judgeRun(runId, id), reviewerEmails ? detail : withoutReviewerEmails(detail));
  for (const file of detail.files) {
    try {
      if (file.kind === "text")
        await writer.data(staticKeys.judgeRunText(runId, id, file.path), await data.judgeRunText(runId, id, file.path));
      else if (file.kind === "image")
        await writer.copy(
          data.judgeRunFilePath(runId, id, file.path)!,
          decodeURIComponent(staticRawFile(runId, id, file.path)),
        );
    } catch (error) {
      // A file that fails its hash check is left out; the judge run's integrityError says why.
      if (!(error instanceof UnreadableEvidenceError)) throw error;
    }
  }
}

/** The judge run's detail with every reviewer's email left out: an export is shared beyond the people who reviewed. */
export function withoutReviewerEmails(detail: JudgeRunDetail): JudgeRunDetail {
  const anonymous = <T extends { reviewer: Reviewer }>(item: T): T => ({
    ...item,
    reviewer: { ...item.reviewer, email: null },
  });
  return {
    ...detail,
    criteria: detail.criteria.map((criterion) => ({
      ...criterion,
      review: criterion.review && anonymous(criterion.review),
    })),
    reviews: detail.reviews.map((standing) => ({ ...standing, review: anonymous(standing.review) })),
  };
}

async function prepareOutput(output: string): Promise<void> {
  if (existsSync(output) && readdirSync(output).length > 0) {
    if (!existsSync(join(output, MARKER))) {
      throw new ExportError("targetNotEmpty", { output });
    }
    // An earlier export: replace it whole, so nothing stale is left behind.
    for (const name of ["data", "raw", "index.html", "app.js", "app.css", MARKER])
      await rm(join(output, name), { recursive: true, force: true });
  }
  await mkdir(output, { recursive: true });
}

class ExportWriter {
  files = 0;
  bytes = 0;

  constructor(
    private readonly root: string,
    private readonly scrubber: Scrubber,
  ) {}

  /** One answer as a data script: `__openevalData(key, value)`, scrubbed. */
  async data(key: string, value: unknown): Promise<void> {
    if (value === null || value === undefined) return;
    const json = this.scrubber.text(JSON.stringify(value));
    await this.raw(staticDataFile(key), `${STATIC_CALLBACK}(${JSON.stringify(key)},${json});\n`);
  }

  async raw(path: string, content: string): Promise<void> {
    const target = join(this.root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    this.files += 1;
    this.bytes += Buffer.byteLength(content);
  }

  async copy(source: string, path: string): Promise<void> {
    const target = join(this.root, path);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
    this.files += 1;
    this.bytes += (await readFile(target)).length;
  }
}
