// What the viewer's page may change, under /api/actions (each request first passes action-guard.ts): a person's
// review of a criterion, recorded by the same library call as `openeval review`.
import * as z from "zod";
import { OpenEvalError } from "../util/errors.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { REVIEW_SCORES } from "../records/index.ts";
import { reviewEvalRun } from "../summary/index.ts";
import type { ViewerData } from "./viewer-data.ts";
import type { ReviewRequest } from "./api-types.ts";

const REVIEW_ROUTE = /^\/api\/actions\/runs\/([^/]+)\/reviews$/;

const ReviewRequestSchema = z.strictObject({
  evalRunId: z.string().min(1),
  criterion: z.string().min(1),
  score: z.literal(REVIEW_SCORES),
  reason: z.string(),
  /** The reviewer's name; default `git config user.name` (and email) where the viewer runs. */
  by: z.string().trim().min(1).optional(),
}) satisfies z.ZodType<ReviewRequest>;

export function isActionPath(pathname: string): boolean {
  return pathname.startsWith("/api/actions/");
}

/** Answers one request the guard let through: 400 names what is wrong with it, 404 an unknown run or action. */
export async function handleAction(data: ViewerData, request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const match = REVIEW_ROUTE.exec(pathname);
  if (!match) return Response.json({ error: `No such action: ${pathname}` }, { status: 404 });
  const runId = decodeURIComponent(match[1]!);
  const directory = data.catalog.directory(runId);
  if (directory === null) return Response.json({ error: `No run ${runId} here` }, { status: 404 });
  const parsed = ReviewRequestSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success)
    return Response.json({ error: `Invalid review: ${describeZodIssues(parsed.error).join("; ")}` }, { status: 400 });
  const { evalRunId, criterion, score, reason, by } = parsed.data;
  try {
    const result = await reviewEvalRun({
      run: directory,
      evalRun: evalRunId,
      criterion,
      score,
      reason,
      ...(by ? { by: { name: by } } : {}),
    });
    // The page reloads at once: it must not be served the index read before the review.
    data.catalog.forget(runId);
    return Response.json(result);
  } catch (error) {
    if (error instanceof OpenEvalError)
      return Response.json({ error: error.message, code: error.code }, { status: 400 });
    throw error;
  }
}
