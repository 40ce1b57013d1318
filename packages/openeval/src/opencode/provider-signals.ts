// What a session's provider says about its load, read live from OpenCode's log: each model request sent, each one
// that failed (and whether the failure is a rate limit or an overload), and each step answered. OpenCode 1.18 retries
// 429 and 5xx answers on its own, honouring `retry-after`, and logs no status code or header: a failed request is
// a `message="stream error"` line holding the provider's message (or the HTTP status text when its body had none),
// and the retry is the session's next `message=stream` line, sent once the wait is over.

/** Why a provider pushed back: too many requests (429, quotas), or no capacity (503, 529, "overloaded"). */
export type ProviderPressure = "rate_limited" | "unavailable";

export type ProviderSignal =
  /** A model request went out (a retry, when the session's last one failed). */
  | { kind: "sent"; provider: string | null; sessionID: string }
  /** A model request failed; `pressure` is null for failures that say nothing about load (a 400, a refused connection). */
  | { kind: "failed"; provider: string | null; sessionID: string; pressure: ProviderPressure | null; message: string }
  /** A model step finished: the provider answered. */
  | { kind: "answered"; sessionID: string | null };

/** Words of rate limits across providers (OpenAI, Anthropic, Google, OpenRouter, vLLM) and the 429 status text. */
const RATE_LIMITED =
  /too many requests|too_many_requests|rate[ _-]?limit|\b429\b|quota|resource[ _-]?exhausted|throttl|requests per (?:min|sec)|tokens per min/i;
/** Words of an overloaded or unavailable provider and the 503 status text (Anthropic answers 529 "Overloaded"). */
const UNAVAILABLE =
  /service unavailable|service_unavailable|overloaded|\b503\b|\b529\b|at capacity|temporarily unavailable|server is busy/i;

/**
 * The signal one line of OpenCode's log (`--print-logs`) carries, or null. Requests of the small model (titles) are
 * not the session's steps and are skipped, as the retry count skips them.
 * @example
 * readProviderSignal('… level=ERROR … message="stream error" providerID=local modelID=m session.id=ses_1 small=false … error.error="AI_APICallError: Too Many Requests"')
 * // { kind: "failed", provider: "local", sessionID: "ses_1", pressure: "rate_limited", message: "Too Many Requests" }
 */
export function readProviderSignal(line: string): ProviderSignal | null {
  const sessionID = LOG_SESSION.exec(line)?.[1];
  if (sessionID === undefined || line.includes(" small=true")) return null;
  const provider = LOG_PROVIDER.exec(line)?.[1] ?? null;
  if (line.includes(' message="stream error" ')) {
    const message = readErrorText(line);
    return { kind: "failed", provider, sessionID, pressure: classifyPressure(message), message };
  }
  if (line.includes(" message=stream ")) return { kind: "sent", provider, sessionID };
  return null;
}

/** Rate limit, overload, or neither, from a provider's error message. */
export function classifyPressure(message: string): ProviderPressure | null {
  if (RATE_LIMITED.test(message)) return "rate_limited";
  if (UNAVAILABLE.test(message)) return "unavailable";
  return null;
}

const LOG_SESSION = / session\.id=(\S+)/;
const LOG_PROVIDER = / providerID=(\S+)/;
/** The logged error: quoted (with `\"` escapes) when it has spaces, else bare. */
const LOG_ERROR = / error\.error=(?:"((?:[^"\\]|\\.)*)"|(\S+))/;

/** The provider's message, without the AI SDK's error class name. */
function readErrorText(line: string): string {
  const match = LOG_ERROR.exec(line);
  const raw = match?.[1]?.replace(/\\(.)/g, "$1") ?? match?.[2] ?? "";
  return raw.replace(/^AI_\w+: /, "");
}
