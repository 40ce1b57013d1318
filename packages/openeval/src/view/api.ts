// The JSON API under /api: one route table, parameters parsed with zod at the edge, answers from ViewerData.
// 400 names the bad parameter, 404 the missing thing; a path that tries to leave its folder is a 400; evidence that
// fails its hash check is a 409 naming what changed.
import { existsSync, statSync } from "node:fs";
import { extname } from "node:path";
import type * as z from "zod";
import { UnsafePathError } from "../util/relative-path.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { CompareError } from "./errors.ts";
import { IMAGE_TYPES } from "./folder-files.ts";
import { streamLiveUpdates } from "./live.ts";
import { CompareChangesQuerySchema, CompareQuerySchema, EvalRunQuerySchema, FileQuerySchema, IdSchema, LocateQuerySchema, PageQuerySchema, PathQuerySchema, TranscriptQuerySchema } from "./schema.ts";
import type { ViewerData } from "./viewer-data.ts";
import { UnreadableEvidenceError } from "./errors.ts";

type Handler = (data: ViewerData, ids: string[], query: URLSearchParams, request: Request) => unknown | Promise<unknown>;

const ROUTES: [RegExp, Handler][] = [
  [/^\/api\/runs$/, (data) => data.runs()],
  [/^\/api\/compare$/, (data, _ids, query) => {
    const { a, b, ma, mb } = parse(CompareQuerySchema, query);
    return data.compareSummary({ a, b, modelA: ma, modelB: mb });
  }],
  [/^\/api\/compare\/changes$/, (data, _ids, query) => {
    const { a, b, ma, mb, desc, ...page } = parse(CompareChangesQuerySchema, query);
    return data.compareChanges({ a, b, modelA: ma, modelB: mb }, { ...page, descending: desc === "1" });
  }],
  [/^\/api\/runs\/([^/]+)$/, (data, [run]) => data.overview(run!)],
  [/^\/api\/runs\/([^/]+)\/live$/, (data, [run], _query, request) => (data.hasRun(run!) ? streamLiveUpdates(data, run!, request.signal) : null)],
  [/^\/api\/runs\/([^/]+)\/queue$/, (data, [run]) => data.queue(run!)],
  [/^\/api\/runs\/([^/]+)\/matrix$/, (data, [run], query) => {
    const page = parse(PageQuerySchema, query);
    return data.matrix(run!, page.offset, page.limit);
  }],
  [/^\/api\/runs\/([^/]+)\/eval-runs$/, (data, [run], query) => {
    const { eval: evalId, desc, ...rest } = parse(EvalRunQuerySchema, query);
    return data.evalRuns(run!, { ...rest, evalId, descending: desc === "1" });
  }],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)$/, (data, [run, id]) => data.evalRun(run!, id!)],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/transcript$/, (data, [run, id], query) => data.transcript(run!, id!, parse(TranscriptQuerySchema, query))],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/locate$/, (data, [run, id], query) => data.locate(run!, id!, parse(LocateQuerySchema, query).id)],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/events$/, (data, [run, id], query) => {
    const page = parse(PageQuerySchema, query);
    return data.events(run!, id!, page.offset, page.limit);
  }],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/file$/, (data, [run, id], query) => {
    const file = parse(FileQuerySchema, query);
    return data.workspaceFile(run!, id!, file.path, file.revision);
  }],
  [/^\/api\/runs\/([^/]+)\/eval-runs\/([^/]+)\/log$/, (data, [run, id], query) => data.evalRunLog(run!, id!, parse(PathQuerySchema, query).path)],
  [/^\/api\/runs\/([^/]+)\/judge-runs\/([^/]+)$/, (data, [run, id]) => data.judgeRun(run!, id!)],
  [/^\/api\/runs\/([^/]+)\/judge-runs\/([^/]+)\/text$/, (data, [run, id], query) => data.judgeRunText(run!, id!, parse(PathQuerySchema, query).path)],
  [/^\/api\/runs\/([^/]+)\/judge-runs\/([^/]+)\/raw$/, (data, [run, id], query) => rawFile(data.judgeRunFilePath(run!, id!, parse(PathQuerySchema, query).path))],
];

class BadRequest extends Error {}

/** Answers one /api request. */
export async function handleApi(data: ViewerData, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== "GET") return json({ error: "The viewer API is read-only: use GET" }, 405);
  for (const [pattern, handler] of ROUTES) {
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    try {
      const ids = match.slice(1).map((segment) => parse(IdSchema, decodeURIComponent(segment), "id"));
      const answer = await handler(data, ids, url.searchParams, request);
      if (answer instanceof Response) return answer;
      return answer === null || answer === undefined ? json({ error: `Not found: ${url.pathname}` }, 404) : json(answer);
    } catch (error) {
      if (error instanceof BadRequest || error instanceof UnsafePathError || error instanceof CompareError) return json({ error: error.message }, 400);
      if (error instanceof UnreadableEvidenceError) return json({ error: error.message }, 409);
      throw error;
    }
  }
  return json({ error: `No API route ${url.pathname}` }, 404);
}

function parse<S extends z.ZodType>(schema: S, input: URLSearchParams | string, what = "query"): z.output<S> {
  const value = typeof input === "string" ? input : Object.fromEntries(input);
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequest(`Invalid ${what}: ${describeZodIssues(result.error).join("; ")}`);
  return result.data;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
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
