// Everything a finished run publishes, as text to search for leaked secrets: its files under results/, every
// viewer API response about it, and a default export made from a clean shell.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serveViewer } from "../../packages/openeval/src/view/index.ts";
import { runCli } from "./cli.ts";
import { makeTempDir } from "./fixtures.ts";

export interface Published {
  /** A file path or an API path. */
  where: string;
  content: Buffer;
}

/** Every regular file under `root`, not following symlinks (the frozen inputs link to installed packages). */
export function listFiles(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const path = join(root, entry.name);
    return entry.isDirectory() ? listFiles(path) : entry.isFile() ? [path] : [];
  });
}

export function readFiles(root: string): Published[] {
  return listFiles(root).map((path) => ({ where: path, content: readFileSync(path) }));
}

/** The run, every eval run's detail, transcripts, events, files and logs, and every judge run, from `openeval view`'s API. */
export async function readViewerApi(runDirectory: string): Promise<Published[]> {
  const viewer = await serveViewer({ run: runDirectory, port: 0 });
  const published: Published[] = [];
  const get = async (path: string) => {
    const response = await fetch(new URL(path, viewer.url));
    const content = Buffer.from(await response.arrayBuffer());
    published.push({ where: path, content });
    return content.toString("utf8");
  };
  try {
    const runId = runDirectory.split("/").at(-1)!;
    await get(`/api/runs/${runId}`);
    const evalRuns = JSON.parse(await get(`/api/runs/${runId}/eval-runs?limit=100`)) as {
      items: { id: string; judgeRunId: string | null }[];
    };
    for (const item of evalRuns.items) {
      const detail = JSON.parse(await get(`/api/runs/${runId}/eval-runs/${item.id}`)) as {
        sessions: { id: string }[];
        files: { path: string }[];
        logs: { path: string }[];
      };
      for (const session of detail.sessions)
        await get(`/api/runs/${runId}/eval-runs/${item.id}/transcript?session=${session.id}`);
      await get(`/api/runs/${runId}/eval-runs/${item.id}/events?limit=1000`);
      for (const file of detail.files)
        await get(`/api/runs/${runId}/eval-runs/${item.id}/file?path=${encodeURIComponent(file.path)}&revision=final`);
      for (const log of detail.logs)
        await get(`/api/runs/${runId}/eval-runs/${item.id}/log?path=${encodeURIComponent(log.path)}`);
      if (item.judgeRunId) await get(`/api/runs/${runId}/judge-runs/${item.judgeRunId}`);
    }
    return published;
  } finally {
    await viewer.stop();
  }
}

/** `openeval export <run>` with no flags, from a shell that holds none of the run's secrets. */
export async function readDefaultExport(runDirectory: string): Promise<Published[]> {
  const output = join(await makeTempDir(), "export");
  const exported = await runCli(["export", runDirectory, "--output", output], {
    env: { XDG_DATA_HOME: await makeTempDir() },
  });
  if (exported.exitCode !== 0) throw new Error(`openeval export failed (${exported.exitCode}): ${exported.stderr}`);
  return readFiles(output);
}
