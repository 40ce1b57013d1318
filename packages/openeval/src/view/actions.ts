// What the viewer's page may change, under /api/actions (each request first passes action-guard.ts): a person's
// review of a criterion, recorded by the same library call as `openeval review`; and runs, planned, started and
// stopped through the RunLauncher `openeval view` was given (the same coordinator as `openeval run`).
import * as z from "zod";
import { OpenEvalError } from "../util/errors.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { REVIEW_SCORES } from "../records/index.ts";
import { reviewEvalRun } from "../summary/index.ts";
import type { ViewerData } from "./viewer-data.ts";
import type { ReviewRequest } from "./api-types.ts";
import { RunLaunchError } from "./errors.ts";
import type { RunLauncher, RunSelection, RunStartRequest } from "./run-launch-types.ts";

const ReviewRequestSchema = z.strictObject({
  evalRunId: z.string().min(1),
  criterion: z.string().min(1),
  score: z.literal(REVIEW_SCORES),
  reason: z.string(),
  /** The reviewer's name; default `git config user.name` (and email) where the viewer runs. */
  by: z.string().trim().min(1).optional(),
}) satisfies z.ZodType<ReviewRequest>;

const names = z.array(z.string().min(1)).min(1).optional();
const RunSelectionShape = {
  run: z.string().min(1),
  evals: names,
  cases: names,
  models: names,
  variants: names,
  repetitions: z.array(z.int().min(1)).min(1).optional(),
  maxCostUSD: z.number().nonnegative().optional(),
};
const RunSelectionSchema = z.strictObject(RunSelectionShape) satisfies z.ZodType<RunSelection>;
const RunStartSchema = z.strictObject({
  ...RunSelectionShape,
  confirm: z.strictObject({ maximumUSD: z.number().nonnegative().nullable() }),
}) satisfies z.ZodType<RunStartRequest>;

interface ActionContext {
  data: ViewerData;
  launcher: RunLauncher | null;
  body: unknown;
}

type Action = (context: ActionContext, runId: string | null) => Promise<Response>;

const ACTIONS: [RegExp, Action][] = [
  [/^\/api\/actions\/runs\/([^/]+)\/reviews$/, review],
  [
    /^\/api\/actions\/plan$/,
    async ({ launcher, body }) =>
      Response.json(await launcherOf(launcher).plan(parse(RunSelectionSchema, body, "run selection"))),
  ],
  [
    /^\/api\/actions\/runs$/,
    async ({ data, launcher, body }) => {
      const started = await launcherOf(launcher).start(parse(RunStartSchema, body, "run request"));
      data.catalog.forget(started.runId);
      return Response.json(started);
    },
  ],
  [
    /^\/api\/actions\/runs\/([^/]+)\/stop$/,
    async ({ launcher }, runId) => Response.json(await launcherOf(launcher).stop(runId!)),
  ],
];

export function isActionPath(pathname: string): boolean {
  return pathname.startsWith("/api/actions/");
}

/**
 * Answers one request the guard let through: 400 names what is wrong with it, 404 an unknown run or action, 409 what
 * stops a run from starting or stopping (another runner holds it, the plan changed since it was confirmed).
 */
export async function handleAction(
  data: ViewerData,
  request: Request,
  launcher: RunLauncher | null,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  for (const [route, action] of ACTIONS) {
    const match = route.exec(pathname);
    if (!match) continue;
    const body = await request.json().catch(() => undefined);
    try {
      return await action({ data, launcher, body }, match[1] === undefined ? null : decodeURIComponent(match[1]));
    } catch (error) {
      if (error instanceof InvalidRequest) return Response.json({ error: error.message }, { status: 400 });
      if (error instanceof OpenEvalError)
        return Response.json({ error: error.message, code: error.code }, { status: conflicts(error) ? 409 : 400 });
      throw error;
    }
  }
  return Response.json({ error: `No such action: ${pathname}` }, { status: 404 });
}

async function review({ data, body }: ActionContext, runId: string | null): Promise<Response> {
  const directory = data.catalog.directory(runId!);
  if (directory === null) return Response.json({ error: `No run ${runId} here` }, { status: 404 });
  const { evalRunId, criterion, score, reason, by } = parse(ReviewRequestSchema, body, "review");
  const result = await reviewEvalRun({
    run: directory,
    evalRun: evalRunId,
    criterion,
    score,
    reason,
    ...(by ? { by: { name: by } } : {}),
  });
  // The page reloads at once: it must not be served the index read before the review.
  data.catalog.forget(runId!);
  return Response.json(result);
}

class InvalidRequest extends Error {}

function parse<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new InvalidRequest(`Invalid ${what}: ${describeZodIssues(parsed.error).join("; ")}`);
  return parsed.data;
}

function launcherOf(launcher: RunLauncher | null): RunLauncher {
  if (!launcher) throw new RunLaunchError("noLauncher");
  return launcher;
}

/** The run's state stands in the way, not the request: another runner holds it, or the plan moved. */
function conflicts(error: OpenEvalError): boolean {
  return error.code === "OE_RUN_IN_PROGRESS" || error.code.startsWith("OE_LAUNCH_");
}
