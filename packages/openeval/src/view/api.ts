// The JSON API under /api: one route table, parameters parsed with zod at the edge, answers from ViewerData.
// 400 names the bad parameter, 404 the missing thing in words (the viewer shows it as the page's message); a path that
// tries to leave its folder is a 400; evidence that fails its hash check is a 409 naming what changed.
import { existsSync, statSync } from "node:fs";
import { extname } from "node:path";
import type * as z from "zod";
import { UnsafePathError } from "../util/relative-path.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { CompareError } from "./errors.ts";
import { describeComparison, describeMissing, type Missing } from "./not-found.ts";
import { IMAGE_TYPES } from "./folder-files.ts";
import { streamLiveUpdates } from "./live.ts";
import {
  CompareChangesQuerySchema,
  CompareQuerySchema,
  EvalRunQuerySchema,
  FileQuerySchema,
  IdSchema,
  LocateQuerySchema,
  PageQuerySchema,
  PathQuerySchema,
  TranscriptQuerySchema,
} from "./schema.ts";
import type { ViewerData } from "./viewer-data.ts";
import { UnreadableEvidenceError } from "./errors.ts";

type Handler = (
  data: ViewerData,
  ids: string[],
  query: URLSearchParams,
  request: Request,
) => unknown | Promise<unknown>;
/** What a route answers about when its handler finds nothing (the 404's message). */
type Describe = (data: ViewerData, ids: string[], query: URLSearchParams) => Missing;

const ofRun: Describe = (_data, [run]) => ({ run });
const ofEvalRun =
  (part?: (query: URLSearchParams) => string): Describe =>
  (_data, [run, evalRun], query) => ({ run, evalRun, part: part?.(query) });
const ofJudgeRun =
  (part?: (query: URLSearchParams) => string): Describe =>
  (_data, [run, judgeRun], query) => ({ run, judgeRun, part: part?.(query) });
const ofComparison: Describe = (data, _ids, query) => {
  const { a, b, ma, mb } = parse(CompareQuerySchema, query);
  const unknown = [a, b].find((id) => id !== "baseline" && !data.hasRun(id));
  return unknown ? { run: unknown } : { part: describeComparison({ a, b, modelA: ma, modelB: mb }) };
};

const ROUTES: [RegExp, Handler, Describe][] = [
  [/^\/api\/runs$/, (data) => data.runs(), () => ({ part: "the list of runs" })],
  [
    /^\/api\/compare$/,
    (data, _ids, query) => {
      const { a, b, ma, mb } = parse(CompareQuerySchema, query);
      return data.compareSummary({ a, b, modelA: ma, modelB: mb });
    },
    ofComparison,
  ],
  [
    /^\/api\/compare\/changes$/,
    (data, _ids, query) => {
      const { a, b, ma, mb, desc, ...page } = parse(CompareChangesQuerySchema, query);
      return data.compareChanges({ a, b, modelA: ma, modelB: mb }, { ...page, descending: desc === "1" });
    },
    ofComparison,
  ],
  [/^\/api\/runs\/([^/]+)$/, (data, [run]) => data.overview(run!), ofRun],
  [
    /^\/api\/runs\/([^/]+)\/live$/,
    (data, [run], _query, request) => (data.hasRun(run!) ? streamLiveUpdates(data, run!, request.signal) : null),
    ofRun,
  ],
  [/^\/api\/runs\/([^/]+)\/queue$/, (data, [run]) => data.queue(run!), ofRun],
  [
    /^\/api\/runs\/([^/]+)\/matrix$/,
    (data, [run], query) => {
      const page = parse(PageQuerySchema, query);
      return data.matrix(run!, page.offset, page.limit);
    },
    ofRun,
  ],
  [
    /^\/api\/runs\/([^/]+)\/matrix\/([^/]+)$/,
    (data, [run, evalId]) => data.matrixRow(run!, evalId!),
    (data, [run, evalId]) => (data.hasRun(run!) ? { run, part: `the eval ${evalId}` } : { run }),
  ],
  [
    /^\/api\/runs\/([^/]+)\/eval-runs$/,
    (data, [run], query) => {
      const { eval: evalId, desc, ...rest } = parse(EvalRunQuerySchema, query);
      return data.evalRuns(run!, { ...rest, evalId, descending: desc === "1" });
    },
    ofRun,
  ],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)$/, (data, [run, id]) => data.evalRun(run!, id!), ofEvalRun()],
  [
    /^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/transcript$/,
    (data, [run, id], query) => data.transcript(run!, id!, parse(TranscriptQuerySchema, query)),
    ofEvalRun((query) => (query.get("session") ? `the session ${query.get("session")}` : "the transcript")),
  ],
  [
    /^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/locate$/,
    (data, [run, id], query) => data.locate(run!, id!, parse(LocateQuerySchema, query).id),
    ofEvalRun((query) => `the message, part or tool call ${query.get("id")} in the transcript`),
  ],
  [
    /^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/events$/,
    (data, [run, id], query) => {
      const page = parse(PageQuerySchema, query);
      return data.events(run!, id!, page.offset, page.limit);
    },
    ofEvalRun(() => "the events"),
  ],
  [
    /^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/file$/,
    (data, [run, id], query) => {
      const file = parse(FileQuerySchema, query);
      return data.workspaceFile(run!, id!, file.path, file.revision);
    },
    ofEvalRun((query) => `the file ${query.get("path")} of the ${parse(FileQuerySchema, query).revision} workspace`),
  ],
  [
    /^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/log$/,
    (data, [run, id], query) => data.evalRunLog(run!, id!, parse(PathQuerySchema, query).path),
    ofEvalRun((query) => `the log ${query.get("path")}`),
  ],
  [/^\/api\/runs\/([^/]+)\/judge-runs\/([^/]+)$/, (data, [run, id]) => data.judgeRun(run!, id!), ofJudgeRun()],
  [
    /^\/api\/runs\/([^/]+)\/judge-runs\/([^/]+)\/text$/,
    (data, [run, id], query) => data.judgeRunText(run!, id!, parse(PathQuerySchema, query).path),
    ofJudgeRun((query) => `the file ${query.get("path")}`),
  ],
  [
    /^\/api\/runs\/([^/]+)\/judge-runs\/([^/]+)\/raw$/,
    (data, [run, id], query) => rawFile(data.judgeRunFilePath(run!, id!, parse(PathQuerySchema, query).path)),
    ofJudgeRun((query) => `the file ${query.get("path")}`),
  ],
];

class BadRequest extends Error {}

/** Answers one /api request. */
export async function handleApi(data: ViewerData, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== "GET") return json({ error: "The viewer API is read-only: use GET" }, 405);
  for (const [pattern, handler, describe] of ROUTES) {
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    try {
      const ids = match.slice(1).map((segment) => parse(IdSchema, decodeURIComponent(segment), "id"));
      const answer = await handler(data, ids, url.searchParams, request);
      if (answer instanceof Response) return answer;
      if (answer !== null && answer !== undefined) return json(answer);
      return json(
        { error: `Not found: ${describeMissing(narrowMissing(data, describe(data, ids, url.searchParams)))}.` },
        404,
      );
    } catch (error) {
      if (error instanceof BadRequest || error instanceof UnsafePathError || error instanceof CompareError)
        return json({ error: error.message }, 400);
      if (error instanceof UnreadableEvidenceError) return json({ error: error.message }, 409);
      throw error;
    }
  }
  return json({ error: `No API route ${url.pathname}` }, 404);
}

/** The outermost missing thing: an unknown run rather than "its eval run", an unknown eval run rather than its file. */
function narrowMissing(data: ViewerData, missing: Missing): Missing {
  const { run, evalRun, judgeRun } = missing;
  if (run === undefined) return missing;
  const index = data.index(run);
  if (!index) return { run };
  if (evalRun !== undefined && !index.evalRuns.has(evalRun)) return { run, evalRun };
  if (judgeRun !== undefined && !index.judgeRuns.has(judgeRun)) return { run, judgeRun };
  return missing;
}

function parse<S extends z.ZodType>(schema: S, input: URLSearchParams | string, what = "query"): z.output<S> {
  const value = typeof input === "string" ? input : Object.fromEntries(input);
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequest(`Invalid ${what}: ${describeZodIssues(result.error).join("; ")}`);
  return result.data;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Raw bytes of a judge run's file: images as themselves, anything else as a download (never rendered as a page). */
function rawFile(path: string | null): Response | null {
  if (!path || !existsSync(path) || !statSync(path).isFile()) return null;
  const type = IMAGE_TYPES[extname(path).toLowerCase()];
  return new Response(Bun.file(path), {
    headers: {
      "content-type": type ?? "application/octet-stream",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "x-content-type-options": "nosniff",
      ...(type ? {} : { "content-disposition": "attachment" }),
    },
  });
}
