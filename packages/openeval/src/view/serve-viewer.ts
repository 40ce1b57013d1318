// `openeval view`: the bundled front end and the JSON API on 127.0.0.1 only. Requests naming another host are
// refused, so a web page elsewhere cannot reach the results through DNS rebinding; requests that change anything pass
// action-guard.ts first.
import { resultsRoot } from "../records/index.ts";
import { handleApi } from "./api.ts";
import { handleAction, isActionPath } from "./actions.ts";
import { createActionToken, refuseAction } from "./action-guard.ts";
import { bundleViewer } from "./bundle-viewer.ts";
import { RunCatalog } from "./run-catalog.ts";
import { ViewerData } from "./viewer-data.ts";
import type { RunLauncher } from "./run-launch-types.ts";

export const DEFAULT_VIEWER_PORT = 4173;

export interface ServeViewerOptions {
  /** Benchmark folder whose results/ runs are listed (default "."). */
  benchmark?: string;
  /** One run directory to open (its sibling runs are listed too). */
  run?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Nothing can be changed from the page (no review form, no Run, every action refused). */
  readOnly?: boolean;
  /** Plans, starts and stops `openeval run` for the page; without one the page cannot start runs. */
  launcher?: RunLauncher;
}

export interface ViewerServer {
  url: string;
  port: number;
  /** The run the viewer opens first, when there is one. */
  defaultRunId: string | null;
  stop(): Promise<void>;
}

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * @example
 * const viewer = await serveViewer({ benchmark: ".", port: 4173 });
 * console.log(`open ${viewer.url}`);
 * await viewer.stop();
 */
export async function serveViewer(options: ServeViewerOptions = {}): Promise<ViewerServer> {
  const catalog = RunCatalog.open({ run: options.run, resultsRoot: resultsRoot(options.benchmark ?? ".") });
  const data = new ViewerData(catalog);
  const assets = await bundleViewer();
  const token = options.readOnly ? null : createActionToken();
  const launcher = options.readOnly ? null : (options.launcher ?? null);
  const title = "openeval viewer";
  const page = (body: string, type: string) =>
    new Response(body, {
      headers: {
        "content-type": `${type}; charset=utf-8`,
        "content-security-policy": CONTENT_SECURITY_POLICY,
        "cache-control": "no-cache",
      },
    });

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? DEFAULT_VIEWER_PORT,
    // Live streams stay open; they ping every few seconds.
    idleTimeout: 30,
    // Never Bun's development error page: it shows source paths and code to whoever asks.
    development: false,
    error: () =>
      new Response("The viewer failed to answer this request", {
        status: 500,
        headers: { "content-type": "text/plain; charset=utf-8" },
      }),
    async fetch(request) {
      const host = request.headers.get("host");
      // Checked before the URL is parsed: without a Host header there is no URL to parse (HTTP/1.0, raw clients).
      if (!host) return new Response("A Host header is required (127.0.0.1 or localhost)", { status: 400 });
      if (!isLoopbackHost(host))
        return new Response("The viewer answers only on 127.0.0.1 / localhost", { status: 403 });
      const url = new URL(request.url);
      if (isActionPath(url.pathname))
        return refuseAction(request, token) ?? (await handleAction(data, request, launcher));
      if (url.pathname.startsWith("/api/")) {
        try {
          return await handleApi(data, request);
        } catch (error) {
          return Response.json({ error: `The viewer failed to answer: ${(error as Error).message}` }, { status: 500 });
        }
      }
      if (url.pathname === "/" || url.pathname === "/index.html")
        return page(assets.html({ mode: "server", title, token, canRun: launcher !== null }), "text/html");
      if (url.pathname === "/app.js") return page(assets.script, "text/javascript");
      if (url.pathname === "/app.css") return page(assets.stylesheet, "text/css");
      return new Response("Not found", { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/`,
    port: server.port!,
    defaultRunId: catalog.listRuns().defaultRunId,
    async stop() {
      // A run this viewer started stops as `openeval run` does on SIGTERM: its running work recorded interrupted.
      await launcher?.close();
      await server.stop(true);
      await data.close();
    },
  };
}

function isLoopbackHost(host: string): boolean {
  const name = host.replace(/:\d+$/, "");
  return name === "127.0.0.1" || name === "localhost" || name === "[::1]";
}
