// Before the first slot of a model: is its provider's endpoint there at all? A connection and a free metadata call
// (`GET <baseURL>/models`, which OpenAI-compatible servers — llama.cpp, vLLM, Ollama, LM Studio — answer without
// spending anything); never a completion. Without it, an unreachable endpoint costs ~70 s of OpenCode's retries per
// slot and reads as a run that "started" (provider unreachable before any step is an infrastructure error).
import { parseModelRef } from "./model-id.ts";
import { isRecord } from "../util/is-record.ts";

export interface PreflightTarget {
  provider: string;
  baseURL: string;
  apiKey: string | null;
}

/** How long the endpoint has to answer; a local server answers in milliseconds. */
export const PREFLIGHT_TIMEOUT_MS = 5_000;

/**
 * The endpoint benchmark.ts configures for the model's provider (`candidate.providers.<p>.options.baseURL`), or null
 * when it configures none: catalog providers are reached through OpenCode's own catalog, which is not checked here.
 */
export function preflightTarget(
  model: string,
  providers: Readonly<Record<string, Record<string, unknown>>>,
): PreflightTarget | null {
  const { provider } = parseModelRef(model);
  const options = providers[provider]?.options;
  if (!isRecord(options) || typeof options.baseURL !== "string") return null;
  return {
    provider,
    baseURL: options.baseURL.replace(/\/+$/, ""),
    apiKey: typeof options.apiKey === "string" ? options.apiKey : null,
  };
}

/**
 * What is wrong with an endpoint: `unreachable` (nothing answers: an infrastructure error, retry once it is up) or
 * `wrong_path` (a server answers, but not an OpenAI-compatible API at that URL: a setup error of benchmark.ts).
 */
export interface EndpointProblem {
  kind: "unreachable" | "wrong_path";
  /** What the check found, naming the provider and the URL. */
  finding: string;
  /** What to do about it. */
  remedy: string;
}

/** The problem as the reason a slot did not run. */
export function describeEndpointProblem(problem: EndpointProblem): string {
  return `${problem.finding}, so this slot did not run. ${problem.remedy}`;
}

/**
 * Null when the endpoint serves an API there: any answer but a 404 or a non-JSON body (a server that says 401 to
 * `/models` is there, and its key is checked by the first request); otherwise what is wrong, naming the URL and the
 * provider.
 * @example
 * await checkEndpoint({ provider: "local", baseURL: "http://127.0.0.1:9/v1", apiKey: null })
 * // { kind: "unreachable", finding: 'Provider "local" is unreachable at http://127.0.0.1:9/v1 (GET …/models: Unable to connect…)', remedy: "Start the server…" }
 */
export async function checkEndpoint(
  target: PreflightTarget,
  timeoutMs = PREFLIGHT_TIMEOUT_MS,
): Promise<EndpointProblem | null> {
  const url = `${target.baseURL}/models`;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, {
      headers: target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    body = await response.text();
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    return {
      kind: "unreachable",
      finding: `Provider "${target.provider}" is unreachable at ${target.baseURL} (GET ${url}: ${reason})`,
      remedy: `Start the server, or fix benchmark.ts candidate.providers.${target.provider}.options.baseURL; then openeval retry this eval run.`,
    };
  }
  const answer =
    response.status === 404
      ? "404 Not Found"
      : response.ok && !isJson(body)
        ? `${response.status} with a body that is not JSON`
        : null;
  if (answer === null) return null;
  return {
    kind: "wrong_path",
    finding: `Setup error of provider "${target.provider}": GET ${url} answered ${answer}: ${target.baseURL} is not the root of an OpenAI-compatible API`,
    remedy: `Fix benchmark.ts candidate.providers.${target.provider}.options.baseURL${suffixHint(target.baseURL)}; then openeval retry this eval run.`,
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** OpenAI-compatible servers (llama.cpp, vLLM, Ollama, LM Studio) serve their API under `/v1`. */
function suffixHint(baseURL: string): string {
  return /\/v1$/.test(baseURL)
    ? " (the path to the API's root; for most servers it ends in /v1)"
    : ` (most servers serve it under /v1: try ${baseURL}/v1)`;
}
