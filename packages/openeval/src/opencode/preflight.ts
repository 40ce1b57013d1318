// Before the first slot of a model: is its provider's endpoint there at all? A connection and a free metadata call
// (`GET <baseURL>/models`, which OpenAI-compatible servers — llama.cpp, vLLM, Ollama, LM Studio — answer without
// spending anything); never a completion. Without it, an unreachable endpoint costs ~70 s of OpenCode's retries per
// slot and reads as a run that "started" (SPEC §6: provider unreachable before any step is an infrastructure error).
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
export function preflightTarget(model: string, providers: Readonly<Record<string, Record<string, unknown>>>): PreflightTarget | null {
  const { provider } = parseModelRef(model);
  const options = providers[provider]?.options;
  if (!isRecord(options) || typeof options.baseURL !== "string") return null;
  return { provider, baseURL: options.baseURL.replace(/\/+$/, ""), apiKey: typeof options.apiKey === "string" ? options.apiKey : null };
}

/**
 * Null when the endpoint answered (any HTTP status: a server that says 401 or 404 to `/models` is there); otherwise
 * why not, naming the URL and the provider.
 * @example
 * await checkEndpoint({ provider: "local", baseURL: "http://127.0.0.1:9/v1", apiKey: null })
 * // 'Provider "local" is unreachable at http://127.0.0.1:9/v1 (GET http://127.0.0.1:9/v1/models: Unable to connect…) …'
 */
export async function checkEndpoint(target: PreflightTarget, timeoutMs = PREFLIGHT_TIMEOUT_MS): Promise<string | null> {
  const url = `${target.baseURL}/models`;
  try {
    const response = await fetch(url, {
      headers: target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    await response.body?.cancel();
    return null;
  } catch (error) {
    const reason = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    return (
      `Provider "${target.provider}" is unreachable at ${target.baseURL} (GET ${url}: ${reason}), so this slot did not run. ` +
      `Start the server, or fix benchmark.ts candidate.providers.${target.provider}.options.baseURL; then openeval retry this eval run.`
    );
  }
}
