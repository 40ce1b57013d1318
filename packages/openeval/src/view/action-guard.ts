// Requests that change anything (a review) are taken only from the viewer's own page: a POST with a JSON body, an
// Origin that is this server, and the token the served page embeds (made once per process, never written anywhere).
// Another site open in the same browser can send none of these: a cross-site POST carries its own Origin, cannot read
// the page for the token, and a JSON body or custom header makes the browser ask first (CORS preflight), which this
// server never grants. `openeval view --read-only` has no token, and a static export has no server.
import { randomBytes, timingSafeEqual } from "node:crypto";

/** The header the viewer's page sends its token in. */
export const ACTION_TOKEN_HEADER = "x-openeval-token";

export function createActionToken(): string {
  return randomBytes(32).toString("hex");
}

/**
 * Null when the request may change something; else the refusal, saying why.
 * @example refuseAction(request, token) ?? (await handleAction(data, request))
 */
export function refuseAction(request: Request, token: string | null): Response | null {
  if (token === null)
    return refusal(403, "This viewer is read-only (openeval view --read-only): it changes nothing; use the CLI");
  if (request.method !== "POST") return refusal(405, "A request that changes the results must be a POST");
  const host = request.headers.get("host");
  const origin = request.headers.get("origin");
  if (!origin || !host || origin !== `http://${host}`)
    return refusal(403, "Refused: the request does not come from this viewer's own page (its Origin is another site)");
  if (!request.headers.get("content-type")?.startsWith("application/json"))
    return refusal(415, "A request that changes the results must send a JSON body (Content-Type: application/json)");
  const given = Buffer.from(request.headers.get(ACTION_TOKEN_HEADER) ?? "");
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return refusal(403, "Refused: the request lacks this viewer's token; reload the viewer's page and try again");
  return null;
}

function refusal(status: number, error: string): Response {
  return Response.json({ error }, { status });
}
