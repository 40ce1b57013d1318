// Every answer the viewer gives, independent of HTTP: the server routes requests here, and the static export
// calls the same methods to write its data files. Null means "no such run / eval run / judge run / file".
import { join } from "node:path";
import { existsSync } from "node:fs";
import {
  checkJudgeRunFile,
  checkRecords,
  readReviews,
  ResultsStore,
  type EvalRun,
  type JudgeRun,
} from "../records/index.ts";
import { LatestReviews } from "../summary/index.ts";
import { UnreadableEvidenceError } from "./errors.ts";
import type {
  EvalRunDetail,
  EvalRunQuery,
  EventRow,
  FileText,
  JudgeRunDetail,
  LiveMessage,
  MatrixAnswer,
  MatrixRow,
  Page,
  RunOverview,
  RunsAnswer,
  TranscriptLocation,
  TranscriptPage,
} from "./api-types.ts";
import { readFolderText, resolveInside } from "./folder-files.ts";
import { locateInTranscript, pageOf, selectEvalRuns, type EvalRunSelection } from "./query.ts";
import { evalRunFolder, openEvalRunRecording, readEvalRunDetail, readWorkspaceText } from "./read-eval-run.ts";
import { ownsJudgeRunFile, readJudgeRunDetail } from "./read-judge-run.ts";
import type { RunCatalog } from "./run-catalog.ts";
import { matrixCandidates, matrixRowOf, matrixRows, type RunIndex } from "./run-index.ts";
import { RecordingCache } from "./recording-cache.ts";
import { SummaryReader } from "./run-summary.ts";
import type {
  ChangeQuery,
  ChangeRow,
  ComparisonAnswer,
  ComparisonRequest,
  ComparisonSummary,
} from "./compare-types.ts";
import { pairAt, selectChanges, summarizeComparison } from "./compare-pages.ts";
import { baselineFile, compareSides, loadBaselineSide, loadRunSide } from "./compare-runs.ts";
import { Selections } from "./selections.ts";
import { fileVersion } from "./store-version.ts";
import { readQueue } from "./live-queue.ts";
import type { QueueAnswer } from "./queue-types.ts";

/** Comparisons kept in memory (the oldest is dropped first). */
const COMPARISONS_KEPT = 16;

/** A recording that exists but cannot be read (it fails its hash check) is an error to show; no recording is empty. */
function unreadable<T>(evalRun: EvalRun, error: string, empty: () => T): T {
  if (evalRun.evidence) throw new UnreadableEvidenceError("recordingFailsCheck", { problem: error });
  return empty();
}

export class ViewerData {
  private readonly recordings = new RecordingCache();
  private readonly summaries = new SummaryReader();
  private readonly queues = new Map<string, { version: string; answer: QueueAnswer }>();
  private readonly comparisons = new Map<string, ComparisonAnswer>();
  private readonly evalRunSelections = new Selections((index: RunIndex, selection: EvalRunSelection) =>
    selectEvalRuns(index.rows, selection),
  );
  private readonly changeSelections = new Selections(selectChanges);

  constructor(readonly catalog: RunCatalog) {}

  runs(): RunsAnswer {
    return this.catalog.listRuns();
  }

  hasRun(runId: string): boolean {
    return this.catalog.directory(runId) !== null;
  }

  /** The run's index, or null for an unknown run id. */
  index(runId: string): RunIndex | null {
    return this.catalog.directory(runId) === null ? null : this.catalog.index(runId);
  }

  /**
   * The run's summary with its verdict (which needs benchmark.ts): the one its runner recorded while that holds, read
   * without indexing the run's eval runs; else made once per version of the run, from its index.
   */
  async overview(runId: string): Promise<RunOverview | null> {
    const directory = this.catalog.directory(runId);
    if (directory === null) return null;
    return (await this.summaries.recordedOverview(directory)) ?? this.summaries.overview(this.catalog.index(runId));
  }

  /** What a page's live stream is told: the run's version (the overview's) and whether a runner works on it. */
  async liveState(runId: string): Promise<LiveMessage | null> {
    const directory = this.catalog.directory(runId);
    if (directory === null) return null;
    const overview = (await this.summaries.recordedOverview(directory)) ?? this.catalog.index(runId).overview;
    return { version: overview.version, live: overview.live };
  }

  /**
   * The latest invocation's running, queued and finished work, spend and ETA: made once per version of the run
   * (its `at` says when; the page counts elapsed time and the ETA on from there).
   */
  queue(runId: string): QueueAnswer | null {
    const index = this.index(runId);
    if (!index) return null;
    const cached = this.queues.get(runId);
    if (cached?.version === index.version) return cached.answer;
    const answer = readQueue(index);
    this.queues.set(runId, { version: index.version, answer });
    return answer;
  }

  /**
   * Side a against side b (b − a), whole: made once per version of both sides (a run's store, or baseline.json's
   * size and mtime, since `baseline set` may have just rewritten it); null when either run is unknown.
   */
  async compare(request: ComparisonRequest): Promise<ComparisonAnswer | null> {
    const indexB = this.index(request.b);
    const indexA = request.a === "baseline" ? null : this.index(request.a);
    if (!indexB || (request.a !== "baseline" && !indexA)) return null;
    const versionA = indexA ? indexA.version : fileVersion(baselineFile(indexB.run.benchmarkDirectory));
    const key = JSON.stringify([request.a, versionA, request.b, indexB.version, request.modelA, request.modelB]);
    const kept = this.comparisons.get(key);
    if (kept) return kept;
    const a = indexA ? loadRunSide(request.a, indexA) : await loadBaselineSide(indexB.run.benchmarkDirectory);
    const answer = compareSides(a, loadRunSide(request.b, indexB), request);
    if (this.comparisons.size >= COMPARISONS_KEPT) this.comparisons.delete(this.comparisons.keys().next().value!);
    this.comparisons.set(key, answer);
    return answer;
  }

  /** What the compare page's header shows: each pair's scores, paired difference and counts, without its evals. */
  async compareSummary(request: ComparisonRequest): Promise<ComparisonSummary | null> {
    const answer = await this.compare(request);
    return answer && summarizeComparison(answer);
  }

  /** A page of one pair's changes, cut from the kept comparison; its query's filtered, sorted rows are kept with it. */
  async compareChanges(request: ComparisonRequest, query: ChangeQuery): Promise<Page<ChangeRow> | null> {
    const answer = await this.compare(request);
    if (!answer) return null;
    const { pair, offset, limit, ...selection } = query;
    return pageOf(this.changeSelections.select(pairAt(answer, pair), selection), offset, limit);
  }

  matrix(runId: string, offset: number, limit: number): MatrixAnswer | null {
    const index = this.index(runId);
    return (
      index && {
        total: index.matrix.evals.length,
        offset,
        items: matrixRows(index, offset, limit),
        candidates: matrixCandidates(index.overview),
      }
    );
  }

  /** One eval's matrix row, its cases' scores among it; null when the run or the eval is unknown. */
  matrixRow(runId: string, evalId: string): MatrixRow | null {
    const index = this.index(runId);
    return index && matrixRowOf(index, evalId);
  }

  /** A page of eval runs; its query's filtered, sorted rows are kept with the run's index, so paging on is a slice. */
  evalRuns(runId: string, query: EvalRunQuery) {
    const index = this.index(runId);
    if (!index) return null;
    const { offset, limit, ...selection } = query;
    return pageOf(this.evalRunSelections.select(index, selection), offset, limit);
  }

  async evalRun(runId: string, evalRunId: string): Promise<EvalRunDetail | null> {
    const found = this.find(runId, evalRunId);
    return found && readEvalRunDetail(found.index, found.evalRun, this.recordings);
  }

  /** One page of a session's messages; `around` (a message, part or tool call id) picks the page that holds it. */
  async transcript(
    runId: string,
    evalRunId: string,
    options: { session?: string; offset: number; limit: number },
  ): Promise<TranscriptPage | null> {
    const transcripts = await this.transcripts(runId, evalRunId);
    if (!transcripts) return null;
    const sessionID = options.session ?? [...transcripts.keys()][0];
    const messages = sessionID === undefined ? undefined : transcripts.get(sessionID);
    if (!messages) return null;
    return { ...pageOf(messages, options.offset, options.limit), sessionID: sessionID! };
  }

  async locate(runId: string, evalRunId: string, id: string): Promise<TranscriptLocation | null> {
    const transcripts = await this.transcripts(runId, evalRunId);
    return transcripts && locateInTranscript(transcripts, id);
  }

  async events(runId: string, evalRunId: string, offset: number, limit: number): Promise<Page<EventRow> | null> {
    const found = this.find(runId, evalRunId);
    if (!found) return null;
    const recording = await openEvalRunRecording(found.index, found.evalRun, this.recordings);
    if ("error" in recording) return unreadable(found.evalRun, recording.error, () => pageOf([], 0, limit));
    return pageOf(await recording.events(), offset, limit);
  }

  async workspaceFile(
    runId: string,
    evalRunId: string,
    path: string,
    revision: "initial" | "final",
  ): Promise<FileText | null> {
    const found = this.find(runId, evalRunId);
    if (!found) return null;
    const recording = await openEvalRunRecording(found.index, found.evalRun, this.recordings);
    if ("error" in recording) return unreadable(found.evalRun, recording.error, () => null);
    if (!recording.context.workspace.files(revision).some((file) => file.path === path)) return null;
    return readWorkspaceText(recording, path, revision);
  }

  async evalRunLog(runId: string, evalRunId: string, path: string): Promise<FileText | null> {
    const found = this.find(runId, evalRunId);
    return found && readFolderText(join(evalRunFolder(found.index, found.evalRun), "logs"), path);
  }

  async judgeRun(runId: string, judgeRunId: string): Promise<JudgeRunDetail | null> {
    const index = this.index(runId);
    const indexed = index?.judgeRuns.get(judgeRunId);
    if (!index || !indexed) return null;
    const { judgeRun, evalRun, reviews, reviewed } = readWholeRecords(index.directory, (store) => ({
      judgeRun: store.judgeRun(judgeRunId)!,
      evalRun: store.evalRun(indexed.evalRunId),
      reviews: readReviews(store),
      reviewed: new Map(store.reviewRows().map((row) => [row.id, row.evalRunId])),
    }));
    const detail = await readJudgeRunDetail(
      index.directory,
      judgeRun,
      index.rowsById.get(judgeRun.evalRunId) ?? null,
      (path) => judgeRunFileProblem(index.directory, judgeRun, path),
      new LatestReviews(reviews.reviews),
    );
    const problems = checkRecords(
      index.directory,
      { evalRuns: evalRun ? [evalRun] : [], judgeRuns: [judgeRun] },
      { files: true },
    );
    const reviewProblems = reviews.problems
      .filter((problem) => reviewed.get(problem.id) === judgeRun.evalRunId)
      .map((problem) => problem.message);
    return {
      ...detail,
      integrityError: problems.find((problem) => problem.kind === "judge-run")?.message ?? null,
      reviewProblems,
    };
  }

  async judgeRunText(runId: string, judgeRunId: string, path: string): Promise<FileText | null> {
    const folder = this.judgeRunFolder(runId, judgeRunId, path);
    if (folder === null) return null;
    this.checkJudgeRunFile(runId, judgeRunId, path);
    return readFolderText(folder, path);
  }

  /** The absolute path of a file in a judge run's folder (for raw bytes, e.g. images); null when unknown. */
  judgeRunFilePath(runId: string, judgeRunId: string, path: string): string | null {
    const folder = this.judgeRunFolder(runId, judgeRunId, path);
    if (folder === null) return null;
    this.checkJudgeRunFile(runId, judgeRunId, path);
    return resolveInside(folder, path);
  }

  /** A finished judge run's file is served only when it matches its files.json. */
  private checkJudgeRunFile(runId: string, judgeRunId: string, path: string): void {
    const index = this.index(runId)!;
    const problem = judgeRunFileProblem(index.directory, index.judgeRuns.get(judgeRunId)!, path);
    if (problem) throw new UnreadableEvidenceError("judgeRunFileFailsCheck", { problem });
  }

  close(): Promise<void> {
    return this.recordings.close();
  }

  /** The judge run's folder, when `path` is one of its own files (not the snapshot a decided early check judged). */
  private judgeRunFolder(runId: string, judgeRunId: string, path: string): string | null {
    const index = this.index(runId);
    const judgeRun = index?.judgeRuns.get(judgeRunId);
    return index && judgeRun && ownsJudgeRunFile(judgeRun, path) ? join(index.directory, judgeRun.directory) : null;
  }

  /** The eval run whole (its input, metrics, evidence), read from the store: the index keeps only what its pages list. */
  private find(runId: string, evalRunId: string): { index: RunIndex; evalRun: EvalRun } | null {
    const index = this.index(runId);
    if (!index?.evalRuns.has(evalRunId)) return null;
    return { index, evalRun: readWholeRecords(index.directory, (store) => store.evalRun(evalRunId)!) };
  }

  private async transcripts(runId: string, evalRunId: string) {
    const found = this.find(runId, evalRunId);
    if (!found) return null;
    const recording = await openEvalRunRecording(found.index, found.evalRun, this.recordings);
    if ("error" in recording) return unreadable(found.evalRun, recording.error, () => new Map());
    return recording.transcripts();
  }
}

/** What is wrong with a finished judge run's file (it does not match its files.json), or null. */
function judgeRunFileProblem(
  directory: string,
  judgeRun: Pick<JudgeRun, "id" | "state" | "directory">,
  path: string,
): string | null {
  if (judgeRun.state === "running" || !existsSync(join(directory, judgeRun.directory, path))) return null;
  return checkJudgeRunFile(directory, judgeRun, path);
}

/** Reads whole records of an indexed run from its store (rows are never deleted, so an indexed id is there). */
function readWholeRecords<T>(directory: string, read: (store: ResultsStore) => T): T {
  const store = ResultsStore.open(directory, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}
