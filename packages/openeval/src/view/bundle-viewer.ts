// The front end (packages/viewer) bundled by Bun in memory when the viewer starts: one classic script (an IIFE,
// so that an export opened from file:// can run it — module scripts are blocked there) and one stylesheet.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface ViewerAssets {
  /**
   * `token`: the served page's action token (null when read-only; a static export has none); `canRun`: the page may
   * start runs (a launcher serves it).
   */
  html(options: PageOptions): string;
  script: string;
  stylesheet: string;
}

let built: Promise<ViewerAssets> | null = null;

export function viewerPackageDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  try {
    return dirname(Bun.resolveSync("@openeval/viewer/package.json", here));
  } catch {
    return join(here, "..", "..", "..", "viewer");
  }
}

/** Builds once per process; later calls share the result. */
export function bundleViewer(): Promise<ViewerAssets> {
  built ??= build().catch((error: unknown) => {
    built = null;
    throw error;
  });
  return built;
}

async function build(): Promise<ViewerAssets> {
  const result = await Bun.build({
    entrypoints: [join(viewerPackageDirectory(), "src", "main.tsx")],
    target: "browser",
    format: "iife",
    minify: true,
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success)
    throw new Error(`The viewer front end did not build:\n${result.logs.map((log) => String(log)).join("\n")}`);
  const script = await result.outputs.find((output) => output.path.endsWith(".js"))!.text();
  const stylesheet = (await result.outputs.find((output) => output.path.endsWith(".css"))?.text()) ?? "";
  return { script, stylesheet, html: (options) => renderHtml(options) };
}

interface PageOptions {
  mode: "server" | "static";
  title: string;
  token?: string | null;
  canRun?: boolean;
}

function renderHtml(options: PageOptions): string {
  const escaped = options.title.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped}</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='M8 1l7 7-7 7-7-7z' fill='%234656e0'/%3E%3C/svg%3E">
<link rel="stylesheet" href="app.css">
</head>
<body>
<div id="root"></div>
<script>window.OPENEVAL_VIEWER = ${JSON.stringify({ mode: options.mode, ...(options.token ? { token: options.token, canRun: options.canRun === true } : {}) })};</script>
<script src="app.js"></script>
</body>
</html>
`;
}
