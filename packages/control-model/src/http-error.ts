// OpenAI-style error responses (`{error:{message,type,code}}`) for routing failures and scripted error turns.

/**
 * An error response. `retry-after-ms` is for scripted errors: OpenCode honours it, so a retried 5xx gives up in
 * seconds instead of ~70 s of exponential backoff.
 */
export function errorResponse(status: number, message: string, code: string, retryAfterMs?: number): Response {
  return errorBodyResponse(status, { error: { message, type: errorType(status), code } }, retryAfterMs);
}

/** An error response with a given JSON body: how a scripted turn plays another provider's error shape. */
export function errorBodyResponse(status: number, body: unknown, retryAfterMs?: number): Response {
  const headers: Record<string, string> = retryAfterMs === undefined ? {} : { "retry-after-ms": String(retryAfterMs) };
  return Response.json(body, { status, headers });
}

/**
 * A rate limit's answer: 429 (or 503), an OpenAI error body, and `retry-after` in seconds as providers send it (OpenCode
 * waits that long before its retry).
 */
export function rateLimitResponse(status: 429 | 503, message: string, retryAfterSeconds: number): Response {
  const body = { error: { message, type: errorType(status), code: "rate_limited" } };
  return Response.json(body, { status, headers: { "retry-after": String(retryAfterSeconds) } });
}

function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}
