// Page state lives in the URL hash (`#/runs/<run>/eval-runs/<id>?tab=transcript&focus=…`), so every view can be
// bookmarked, shared and reloaded — and hash routes work the same from a server and from file://.

export type Route =
  | { page: "runs" }
  /** Starting a run (`?run=<id>` resumes that run; default a new one). */
  | { page: "launch" }
  | { page: "run"; run: string }
  | { page: "eval-run"; run: string; evalRun: string }
  | { page: "judge-run"; run: string; judgeRun: string }
  /** Two eval runs of one slot side by side (`?a=<eval run>&runA=<its run>&b=<eval run of this run>`). */
  | { page: "side-by-side"; run: string }
  | { page: "not-found"; path: string };

export interface Location {
  route: Route;
  query: URLSearchParams;
}

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#/, "") || "/";
  const [path = "/", search = ""] = raw.split("?", 2);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search);
  if (parts.length === 0) return { route: { page: "runs" }, query };
  if (parts.length === 1 && parts[0] === "run") return { route: { page: "launch" }, query };
  if (parts[0] === "runs" && parts.length === 2) return { route: { page: "run", run: parts[1]! }, query };
  if (parts[0] === "runs" && parts.length === 3 && parts[2] === "side-by-side")
    return { route: { page: "side-by-side", run: parts[1]! }, query };
  if (parts[0] === "runs" && parts.length === 4 && parts[2] === "eval-runs")
    return { route: { page: "eval-run", run: parts[1]!, evalRun: parts[3]! }, query };
  if (parts[0] === "runs" && parts.length === 4 && parts[2] === "judge-runs")
    return { route: { page: "judge-run", run: parts[1]!, judgeRun: parts[3]! }, query };
  return { route: { page: "not-found", path }, query };
}

type QueryValues = Record<string, string | number | boolean | null | undefined>;

/** `#/…` for a route and its query (empty values are left out). */
export function href(route: Route, query: QueryValues = {}): string {
  const path =
    route.page === "runs"
      ? "/"
      : route.page === "launch"
        ? "/run"
        : route.page === "run"
          ? `/runs/${encodeURIComponent(route.run)}`
          : route.page === "eval-run"
            ? `/runs/${encodeURIComponent(route.run)}/eval-runs/${encodeURIComponent(route.evalRun)}`
            : route.page === "judge-run"
              ? `/runs/${encodeURIComponent(route.run)}/judge-runs/${encodeURIComponent(route.judgeRun)}`
              : route.page === "side-by-side"
                ? `/runs/${encodeURIComponent(route.run)}/side-by-side`
                : route.path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== "" && value !== false) params.set(key, String(value));
  const search = params.toString();
  return `#${path}${search ? `?${search}` : ""}`;
}

/** The same page with some query values changed (null removes one). */
export function withQuery(location: Location, changes: QueryValues): string {
  const query: QueryValues = Object.fromEntries(location.query);
  return href(location.route, { ...query, ...changes });
}
