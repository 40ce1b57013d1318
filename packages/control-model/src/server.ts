// The control model server: one Bun.serve on 127.0.0.1 that routes `/<evalId>/v1/...` to the controls of that eval
// and answers each chat-completions request with the turn the step rule selects.
import * as z from "zod";
import { answerTurn, SUMMARY_ANSWER, type Answer } from "./answer.ts";
import { formatCompletion } from "./completion.ts";
import { errorBodyResponse, errorResponse } from "./http-error.ts";
import { ChatRequestSchema, type ChatRequest, type ControlFile } from "./schema.ts";
import { createRateLimits, type RateLimits } from "./rate-limit.ts";
import { countStep, selectTurn } from "./select-turn.ts";
import { formatSseEvents } from "./stream.ts";

/** One chat-completions request that named a control (malformed bodies are answered 400 and not logged). */
export interface ControlRequestLog {
  evalId: string;
  control: string;
  /** Assistant messages after the last user message. Requests without tools play no turn but still report it. */
  step: number;
  /** OpenCode's `x-session-id` header. */
  sessionID: string | null;
  hadTools: boolean;
  /** The HTTP status answered; 499 when the client disconnected during `delayMs`. */
  status: number;
  /** Epoch ms when the request arrived. */
  at: number;
}

export interface ControlServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** The OpenAI base URL for one eval's controls: `url + "/" + encodeURIComponent(evalId) + "/v1"`. */
  baseURL(evalId: string): string;
  readonly requests: readonly ControlRequestLog[];
  close(): Promise<void>;
}

export interface StartControlServerOptions {
  /** evalId → control name → control file. */
  controls: Record<string, Record<string, ControlFile>>;
  /** Default 0: a free port. */
  port?: number;
}

/** Status logged when the client went away before the answer; never sent. */
const CLIENT_CLOSED = 499;
/** Sent with scripted errors so OpenCode's retries (5 of them) take milliseconds, not ~70 s of backoff. */
const ERROR_RETRY_AFTER_MS = 50;
const ROUTES = "GET /health, GET /<evalId>/v1/models, POST /<evalId>/v1/chat/completions";

/**
 * Starts the control model server on 127.0.0.1. Point an `@ai-sdk/openai-compatible` provider at
 * `server.baseURL(evalId)` and select a control by its name as the model id.
 *
 * @example
 * const server = await startControlServer({ controls: { "add-flag": { positive, negative } } });
 * // OpenCode provider "control": options.baseURL = server.baseURL("add-flag"), model "control/positive"
 * await server.close();
 */
export async function startControlServer(options: StartControlServerOptions): Promise<ControlServer> {
  const { controls } = options;
  const requests: ControlRequestLog[] = [];
  /** Requests answered so far per (eval, control, session, step), for `failFirst`. */
  const attempts = new Map<string, number>();
  const rateLimits = createRateLimits();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    routes: {
      "/health": { GET: () => Response.json({ status: "ok" }) },
      "/:evalId/v1/models": { GET: (req) => listModels(controls, req.params.evalId) },
      "/:evalId/v1/chat/completions": {
        POST: async (req) => {
          const at = Date.now();
          const body = await readChatRequest(req);
          if (body instanceof Response) return body;
          const step = countStep(body.messages);
          const hadTools = (body.tools?.length ?? 0) > 0;
          const attemptKey = [
            req.params.evalId,
            body.model,
            req.headers.get("x-session-id"),
            body.messages.length,
            step,
          ].join("\u0000");
          const attempt = (attempts.get(attemptKey) ?? 0) + 1;
          attempts.set(attemptKey, attempt);
          const response = await answerWithin(
            rateLimits,
            body.model,
            findControl(controls, req.params.evalId, body.model),
            (control) => playStep(req, control, body, step, hadTools, attempt),
          );
          requests.push({
            evalId: req.params.evalId,
            control: body.model,
            step,
            sessionID: req.headers.get("x-session-id"),
            hadTools,
            status: response.status,
            at,
          });
          return response;
        },
      },
    },
    fetch: (req) =>
      errorResponse(404, `No route for ${req.method} ${new URL(req.url).pathname}. Routes: ${ROUTES}.`, "no_route"),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    baseURL: (evalId) => `${url}/${encodeURIComponent(evalId)}/v1`,
    requests,
    close: () => server.stop(true),
  };
}

/** Plays the request if the control's rate limit admits it (counting it in flight until answered), else pushes back. */
async function answerWithin(
  rateLimits: RateLimits,
  name: string,
  control: ControlFile | Response,
  play: (control: ControlFile) => Promise<Response>,
): Promise<Response> {
  if (control instanceof Response) return control;
  const admission = rateLimits.admit(name, control);
  if (admission instanceof Response) return admission;
  try {
    return await play(control);
  } finally {
    admission.release();
  }
}

async function playStep(
  req: Request,
  control: ControlFile,
  body: ChatRequest,
  step: number,
  hadTools: boolean,
  attempt: number,
): Promise<Response> {
  if (!hadTools) return answerResponse(SUMMARY_ANSWER, body);
  const turn = selectTurn(control, step);
  if (turn.delayMs && !(await sleep(turn.delayMs, req.signal))) return new Response(null, { status: CLIENT_CLOSED });
  if (turn.error) {
    const { status, message = `Scripted control error (HTTP ${status})`, body } = turn.error;
    if (body !== undefined) return errorBodyResponse(status, body, ERROR_RETRY_AFTER_MS);
    return errorResponse(status, message, "control_error", ERROR_RETRY_AFTER_MS);
  }
  if (turn.failFirst && attempt <= turn.failFirst.times) {
    const { status, message = `Scripted transient error (HTTP ${status}), attempt ${attempt}` } = turn.failFirst;
    return errorResponse(status, message, "control_error", ERROR_RETRY_AFTER_MS);
  }
  return answerResponse(answerTurn(turn), body);
}

function answerResponse(answer: Answer, body: ChatRequest): Response {
  const meta = { id: `chatcmpl-${crypto.randomUUID()}`, model: body.model, created: Math.floor(Date.now() / 1000) };
  if (!body.stream) return Response.json(formatCompletion(answer, meta));
  return new Response(formatSseEvents(answer, meta).join(""), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

async function readChatRequest(req: Request): Promise<ChatRequest | Response> {
  let json: unknown;
  try {
    json = await req.json();
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return errorResponse(400, `Request body is not valid JSON: ${reason}`, "invalid_json");
  }
  const parsed = ChatRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return errorResponse(400, `Not a chat-completions request:\n${z.prettifyError(parsed.error)}`, "invalid_request");
}

function listModels(controls: StartControlServerOptions["controls"], evalId: string): Response {
  const evalControls = findEval(controls, evalId);
  if (evalControls instanceof Response) return evalControls;
  const data = Object.keys(evalControls).map((id) => ({ id, object: "model", created: 0, owned_by: "control" }));
  return Response.json({ object: "list", data });
}

function findControl(controls: StartControlServerOptions["controls"], evalId: string, name: string) {
  const evalControls = findEval(controls, evalId);
  if (evalControls instanceof Response) return evalControls;
  const control = Object.hasOwn(evalControls, name) ? evalControls[name] : undefined;
  if (control) return control;
  const known = listNames(evalControls);
  return errorResponse(
    404,
    `Unknown control "${name}" for eval "${evalId}". Known controls: ${known}.`,
    "unknown_control",
  );
}

function findEval(controls: StartControlServerOptions["controls"], evalId: string) {
  const evalControls = Object.hasOwn(controls, evalId) ? controls[evalId] : undefined;
  if (evalControls) return evalControls;
  return errorResponse(404, `Unknown eval "${evalId}". Known evals: ${listNames(controls)}.`, "unknown_eval");
}

function listNames(record: object): string {
  const names = Object.keys(record);
  return names.length > 0 ? names.join(", ") : "(none)";
}

/** Resolves true after `ms`, or false as soon as the client disconnects. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
