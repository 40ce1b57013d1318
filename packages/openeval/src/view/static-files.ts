// Where a static export keeps each answer. Pure (no Node modules): the exporter writes these files and the
// front end, opened from file://, loads them as classic scripts (file:// pages may not fetch()).
// Lists are exported whole; the browser pages and filters them with query.ts, as the server does.

export const STATIC_CALLBACK = "__openevalData";

export const staticKeys = {
  runs: () => "runs",
  overview: (run: string) => `runs/${run}`,
  matrix: (run: string) => `runs/${run}/matrix`,
  evalRuns: (run: string) => `runs/${run}/eval-runs`,
  evalRun: (run: string, id: string) => `runs/${run}/eval-runs/${id}`,
  /** Every session's messages: `Record<sessionID, TranscriptMessage[]>`, root first. */
  transcripts: (run: string, id: string) => `runs/${run}/eval-runs/${id}/transcripts`,
  events: (run: string, id: string) => `runs/${run}/eval-runs/${id}/events`,
  workspaceFile: (run: string, id: string, revision: string, path: string) =>
    `runs/${run}/eval-runs/${id}/file/${revision}/${path}`,
  evalRunLog: (run: string, id: string, path: string) => `runs/${run}/eval-runs/${id}/log/${path}`,
  judgeRun: (run: string, id: string) => `runs/${run}/judge-runs/${id}`,
  judgeRunText: (run: string, id: string, path: string) => `runs/${run}/judge-runs/${id}/text/${path}`,
  queue: (run: string) => `runs/${run}/queue`,
  /** a: a run id or "baseline"; the models are "" when every shared model is compared. */
  compare: (a: string, b: string, modelA = "", modelB = "") => `compare/${a}/${b}/${modelA}/${modelB}`,
};

/** The data file that holds `key` (a 53-bit hash: no collisions in practice, and the loader checks the key). */
export function staticDataFile(key: string): string {
  return `data/${hash53(key).toString(36)}.js`;
}

/** A judge run's raw file (an image) inside the export; paths were checked when the export listed them. */
export function staticRawFile(run: string, judgeRunId: string, path: string): string {
  return `raw/${encodeURIComponent(run)}/${encodeURIComponent(judgeRunId)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** cyrb53 (public domain): a fast, well-mixed 53-bit string hash. */
function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ char, 2654435761);
    h2 = Math.imul(h2 ^ char, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
