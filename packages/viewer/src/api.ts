// The viewer's data source: the JSON API of `openeval view`, or the data files of a static export (loaded as
// scripts, since a page opened from file:// may not fetch). Both answer with the server's own types.
import {
  type ChangeQuery,
  type ChangeRow,
  type ComparisonAnswer,
  type ComparisonRequest,
  type ComparisonSummary,
  describeComparison,
  describeMissing,
  type EvalRunDetail,
  type EvalRunQuery,
  type EvalRunRow,
  type EventRow,
  type FileText,
  type JudgeRunDetail,
  type LiveMessage,
  locateInTranscript,
  type MatrixAnswer,
  type MatrixRow,
  type Missing,
  type Page,
  pageOf,
  queryChanges,
  queryEvalRuns,
  type QueueAnswer,
  type RunOverview,
  type RunPlanAnswer,
  type RunSelection,
  type RunStartRequest,
  type StartedRun,
  type StoppedRun,
  type ReviewRequest,
  type ReviewStanding,
  type RunsAnswer,
  STATIC_CALLBACK,
  staticDataFile,
  staticKeys,
  staticRawFile,
  summarizeComparison,
  type TranscriptLocation,
  type TranscriptMessage,
  type TranscriptPage,
} from "openeval/viewer-api";

export interface ViewerApi {
  mode: "server" | "static";
  runs(): Promise<RunsAnswer>;
  overview(run: string): Promise<RunOverview>;
  matrix(run: string, offset: number, limit: number): Promise<MatrixAnswer>;
  /** One eval's matrix row, with each candidate's case scores when the eval has cases. */
  matrixRow(run: string, evalId: string): Promise<MatrixRow>;
  evalRuns(run: string, query: EvalRunQuery): Promise<Page<EvalRunRow>>;
  evalRun(run: string, id: string): Promise<EvalRunDetail>;
  transcript(
    run: string,
    id: string,
    session: string | undefined,
    offset: number,
    limit: number,
  ): Promise<TranscriptPage>;
  locate(run: string, id: string, target: string): Promise<TranscriptLocation | null>;
  events(run: string, id: string, offset: number, limit: number): Promise<Page<EventRow>>;
  workspaceFile(run: string, id: string, path: string, revision: "initial" | "final"): Promise<FileText>;
  evalRunLog(run: string, id: string, path: string): Promise<FileText>;
  judgeRun(run: string, id: string): Promise<JudgeRunDetail>;
  judgeRunText(run: string, id: string, path: string): Promise<FileText>;
  /** A URL for an image (or any raw file) of a judge run's folder. */
  judgeRunRawUrl(run: string, id: string, path: string): string;
  /** The latest invocation's live queue (a static export keeps the one it was made with). */
  queue(run: string): Promise<QueueAnswer>;
  /**
   * Side a against side b (b − a), per model pair; a static export holds its run against baseline.json and its model
   * pairs.
   */
  compare(request: ComparisonRequest): Promise<ComparisonSummary>;
  /** A page of one model pair's changes, filtered and sorted. */
  compareChanges(request: ComparisonRequest, query: ChangeQuery): Promise<Page<ChangeRow>>;
  /** Calls back whenever the run's content changes; returns the unsubscribe. A static export never changes. */
  subscribe(run: string, onChange: (message: LiveMessage) => void): () => void;
  /** Reviews can be recorded from the page: a served viewer not started --read-only. */
  canReview: boolean;
  /** Records a person's review of a criterion (as `openeval review` does); throws with the server's reason. */
  review(run: string, request: ReviewRequest): Promise<{ review: ReviewStanding["review"] }>;
  /** Runs can be planned, started and stopped from the page: a served viewer with a launcher, not --read-only. */
  canRun: boolean;
  /** What `openeval run` would do for the selection, its estimate and its maximum cost. */
  planRun(selection: RunSelection): Promise<RunPlanAnswer>;
  /** Starts `openeval run` for the selection, confirmed against the maximum the plan showed. */
  startRun(request: RunStartRequest): Promise<StartedRun>;
  /** Stops a run this viewer started, as SIGTERM stops `openeval run`. */
  stopRun(run: string): Promise<StoppedRun>;
}

export class NotFoundError extends Error {}

function notInExport(missing: Missing): NotFoundError {
  return new NotFoundError(`Not in this export: ${describeMissing(missing)}.`);
}

/** `token`: the served page's action token (null: read-only); `canRun`: the server can start runs. */
export function createApi(mode: "server" | "static", token: string | null = null, canRun = false): ViewerApi {
  return mode === "static" ? staticApi() : serverApi(token, canRun);
}

function serverApi(token: string | null, canRun: boolean): ViewerApi {
  const get = async <T>(
    path: string,
    query: Record<string, string | number | boolean | undefined> = {},
  ): Promise<T> => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value !== undefined && value !== "") params.set(key, String(value));
    const search = params.size > 0 ? `?${params}` : "";
    const response = await fetch(`api/${path}${search}`);
    const body = (await response.json()) as T & { error?: string };
    if (response.status === 404) throw new NotFoundError(body.error ?? "Not found");
    if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
    return body;
  };
  const run = (id: string) => `runs/${encodeURIComponent(id)}`;
  const act = async <T>(path: string, request: unknown): Promise<T> => {
    const response = await fetch(`api/actions/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-openeval-token": token ?? "" },
      body: JSON.stringify(request),
    });
    const body = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
    return body;
  };
  return {
    mode: "server",
    canReview: token !== null,
    review: (id, request) => act(`${run(id)}/reviews`, request),
    canRun: token !== null && canRun,
    planRun: (selection) => act("plan", selection),
    startRun: (request) => act("runs", request),
    stopRun: (id) => act(`${run(id)}/stop`, {}),
    runs: () => get("runs"),
    overview: (id) => get(run(id)),
    matrix: (id, offset, limit) => get(`${run(id)}/matrix`, { offset, limit }),
    matrixRow: (id, evalId) => get(`${run(id)}/matrix/${encodeURIComponent(evalId)}`),
    evalRuns: (id, query) =>
      get(`${run(id)}/eval-runs`, {
        offset: query.offset,
        limit: query.limit,
        eval: query.evalId,
        model: query.model,
        state: query.state,
        sort: query.sort,
        desc: query.descending ? 1 : undefined,
      }),
    evalRun: (id, evalRun) => get(`${run(id)}/eval-runs/${evalRun}`),
    transcript: (id, evalRun, session, offset, limit) =>
      get(`${run(id)}/eval-runs/${evalRun}/transcript`, { session, offset, limit }),
    locate: async (id, evalRun, target) => {
      try {
        return await get<TranscriptLocation>(`${run(id)}/eval-runs/${evalRun}/locate`, { id: target });
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
    },
    events: (id, evalRun, offset, limit) => get(`${run(id)}/eval-runs/${evalRun}/events`, { offset, limit }),
    workspaceFile: (id, evalRun, path, revision) => get(`${run(id)}/eval-runs/${evalRun}/file`, { path, revision }),
    evalRunLog: (id, evalRun, path) => get(`${run(id)}/eval-runs/${evalRun}/log`, { path }),
    judgeRun: (id, judgeRun) => get(`${run(id)}/judge-runs/${judgeRun}`),
    judgeRunText: (id, judgeRun, path) => get(`${run(id)}/judge-runs/${judgeRun}/text`, { path }),
    judgeRunRawUrl: (id, judgeRun, path) =>
      `api/${run(id)}/judge-runs/${judgeRun}/raw?path=${encodeURIComponent(path)}`,
    queue: (id) => get(`${run(id)}/queue`),
    compare: (request) => get("compare", compareParams(request)),
    compareChanges: (request, query) =>
      get("compare/changes", {
        ...compareParams(request),
        pair: query.pair,
        offset: query.offset,
        limit: query.limit,
        sort: query.sort,
        desc: query.descending ? 1 : undefined,
        status: query.status,
      }),
    subscribe(id, onChange) {
      const source = new EventSource(`api/${run(id)}/live`);
      source.onmessage = (event) => onChange(JSON.parse(event.data as string) as LiveMessage);
      return () => source.close();
    },
  };
}

function compareParams(request: ComparisonRequest) {
  return { a: request.a, b: request.b, ma: request.modelA, mb: request.modelB };
}

declare global {
  interface Window {
    [STATIC_CALLBACK]?: (key: string, value: unknown) => void;
  }
}

function staticApi(): ViewerApi {
  const pending = new Map<string, { resolve: (value: unknown) => void }>();
  const loaded = new Map<string, Promise<unknown>>();
  window[STATIC_CALLBACK] = (key, value) => pending.get(key)?.resolve(value);
  /** The answer kept under `key`; a NotFoundError naming `missing` in words when the export does not hold it. */
  const load = <T>(key: string, missing: Missing): Promise<T> => {
    let promise = loaded.get(key);
    if (!promise) {
      promise = new Promise((resolve, reject) => {
        pending.set(key, { resolve });
        const script = document.createElement("script");
        script.src = staticDataFile(key);
        script.onload = () => {
          script.remove();
          // A data file for another key (a hash collision) never resolves this one.
          if (pending.has(key)) setTimeout(() => pending.has(key) && reject(notInExport(missing)), 0);
        };
        script.onerror = () => {
          script.remove();
          pending.delete(key);
          loaded.delete(key);
          reject(notInExport(missing));
        };
        document.head.append(script);
      }).finally(() => pending.delete(key));
      loaded.set(key, promise);
    }
    return promise as Promise<T>;
  };
  // Exported whole; the browser cuts the summary and the pages from it, as the server does.
  const comparison = (request: ComparisonRequest) =>
    load<ComparisonAnswer>(staticKeys.compare(request.a, request.b, request.modelA, request.modelB), {
      part: describeComparison(request),
    });
  const transcripts = async (run: string, id: string) =>
    new Map(
      Object.entries(
        await load<Record<string, TranscriptMessage[]>>(staticKeys.transcripts(run, id), {
          run,
          evalRun: id,
          part: "the transcript",
        }),
      ),
    );
  return {
    mode: "static",
    canReview: false,
    review: () => Promise.reject(new Error("A static export changes nothing: review with `openeval review`")),
    canRun: false,
    planRun: () => Promise.reject(new Error("A static export runs nothing: plan with `openeval plan`")),
    startRun: () => Promise.reject(new Error("A static export runs nothing: run with `openeval run`")),
    stopRun: () => Promise.reject(new Error("A static export runs nothing")),
    runs: () => load(staticKeys.runs(), { part: "the list of runs" }),
    overview: (run) => load(staticKeys.overview(run), { run }),
    matrix: async (run, offset, limit) => {
      const all = await load<{ candidates: string[]; rows: MatrixRow[] }>(staticKeys.matrix(run), { run });
      return { ...pageOf(all.rows, offset, limit), candidates: all.candidates };
    },
    matrixRow: async (run, evalId) => {
      const all = await load<{ rows: MatrixRow[] }>(staticKeys.matrix(run), { run });
      const row = all.rows.find((candidate) => candidate.evalId === evalId);
      if (!row) throw notInExport({ run, part: `the eval ${evalId}` });
      return row;
    },
    evalRuns: async (run, query) => queryEvalRuns(await load<EvalRunRow[]>(staticKeys.evalRuns(run), { run }), query),
    evalRun: (run, id) => load(staticKeys.evalRun(run, id), { run, evalRun: id }),
    transcript: async (run, id, session, offset, limit) => {
      const all = await transcripts(run, id);
      const sessionID = session ?? [...all.keys()][0] ?? "";
      const messages = all.get(sessionID);
      if (!messages) throw notInExport({ run, evalRun: id, part: `the session ${sessionID}` });
      return { ...pageOf(messages, offset, limit), sessionID };
    },
    locate: async (run, id, target) => locateInTranscript(await transcripts(run, id), target),
    events: async (run, id, offset, limit) =>
      pageOf(
        await load<EventRow[]>(staticKeys.events(run, id), { run, evalRun: id, part: "the events" }),
        offset,
        limit,
      ),
    workspaceFile: (run, id, path, revision) =>
      load(staticKeys.workspaceFile(run, id, revision, path), {
        run,
        evalRun: id,
        part: `the file ${path} of the ${revision} workspace`,
      }),
    evalRunLog: (run, id, path) =>
      load(staticKeys.evalRunLog(run, id, path), { run, evalRun: id, part: `the log ${path}` }),
    judgeRun: (run, id) => load(staticKeys.judgeRun(run, id), { run, judgeRun: id }),
    judgeRunText: (run, id, path) =>
      load(staticKeys.judgeRunText(run, id, path), { run, judgeRun: id, part: `the file ${path}` }),
    judgeRunRawUrl: (run, id, path) => staticRawFile(run, id, path),
    queue: (run) => load(staticKeys.queue(run), { run }),
    compare: async (request) => summarizeComparison(await comparison(request)),
    compareChanges: async (request, query) => queryChanges(await comparison(request), query),
    subscribe: () => () => {},
  };
}
