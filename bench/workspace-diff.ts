// Measurement 6: ctx.workspace.patches() on large candidate changes: a 20,000-line added file (a lockfile),
// a 20,000-line file with 10 % of its lines changed, and one rewritten whole. Each case runs in its own Bun process,
// as a code judge would, reporting the diff's wall time and the process's peak RSS against its RSS before the diff.
import { join } from "node:path";
import { recordEvidence } from "../packages/openeval/src/index.ts";
import { round } from "./lib/stats.ts";
import type { Section } from "./lib/table.ts";
import { withTempDir } from "./lib/temp.ts";

export interface WorkspaceDiffCase {
  name: string;
  lines: number;
  diffMs: number;
  /** Peak RSS of the judge-like process minus its RSS just before the diff (MB). */
  extraMB: number;
  peakMB: number;
  patchBytes: number;
}

const LINES = 20_000;
const WORKER = `
import { createJudgeContext, openEvidence } from ${JSON.stringify(join(import.meta.dirname, "..", "packages", "openeval", "src", "recording", "index.ts"))};
const [directory, hash] = process.argv.slice(-2);
await using context = await createJudgeContext(await openEvidence(directory, hash), null);
Bun.gc(true);
const before = process.memoryUsage().rss;
const started = performance.now();
const diffs = await context.workspace.patches();
const diffMs = performance.now() - started;
console.log(JSON.stringify({ diffMs, before, peak: process.resourceUsage().maxRSS * 1024, patchBytes: diffs.reduce((total, diff) => total + diff.patch.length, 0) }));
`;

export async function measureWorkspaceDiff(): Promise<WorkspaceDiffCase[]> {
  const lines = Array.from({ length: LINES }, (_, index) => `"package-${index}": "1.${index % 97}.${index}",`);
  const text = (list: string[]) => `${list.join("\n")}\n`;
  const cases: { name: string; initial: Record<string, string>; final: Record<string, string> }[] = [
    { name: "20,000-line file added", initial: {}, final: { "lock.json": text(lines) } },
    {
      name: "20,000-line file, 10 % of lines modified",
      initial: { "lock.json": text(lines) },
      final: { "lock.json": text(lines.map((line, index) => (index % 10 === 3 ? `${line} // changed` : line))) },
    },
    {
      name: "20,000-line file rewritten whole",
      initial: { "lock.json": text(lines) },
      final: { "lock.json": text(lines.map((line) => line.replace("package", "pkg"))) },
    },
  ];
  const results: WorkspaceDiffCase[] = [];
  for (const entry of cases) {
    results.push(
      await withTempDir("diff", async (directory) => {
        const evidence = await recordEvidence({
          directory: join(directory, "evidence"),
          prompt: "p",
          response: "r",
          workspace: { initial: entry.initial, final: entry.final },
        });
        const child = Bun.spawn([process.execPath, "-e", WORKER, evidence.directory, evidence.hash], {
          stdout: "pipe",
          stderr: "inherit",
        });
        const output = await new Response(child.stdout).text();
        if ((await child.exited) !== 0) throw new Error(`workspace diff worker failed for ${entry.name}`);
        const measured = JSON.parse(output) as { diffMs: number; before: number; peak: number; patchBytes: number };
        return {
          name: entry.name,
          lines: LINES,
          diffMs: round(measured.diffMs),
          extraMB: round((measured.peak - measured.before) / 1e6),
          peakMB: round(measured.peak / 1e6),
          patchBytes: measured.patchBytes,
        };
      }),
    );
  }
  return results;
}

export function sectionWorkspaceDiff(results: WorkspaceDiffCase[]): Section {
  return {
    title: "6. Workspace diff of large candidate changes (judge-like process)",
    columns: ["case", "diff ms", "extra MB", "peak RSS MB", "patch bytes"],
    rows: results.map((result) => [
      result.name,
      String(result.diffMs),
      String(result.extraMB),
      String(result.peakMB),
      String(result.patchBytes),
    ]),
    notes: [
      "extra MB: the process's peak RSS minus its RSS just before the diff (an upper bound on what the diff used).",
    ],
  };
}
