// Writes OpenCode's native export (`opencode export <id>`) of every session in a run's database — the root and each
// child (subagent) session, which the root's export does not include — redacted, one JSON file per session.

import { readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../util/files.ts";
import { OpenCodeError } from "./errors.ts";
import { listSessions } from "./native-database.ts";
import { resolveOpenCodeBinary } from "./opencode-command.ts";
import { killProcessTree } from "../sandbox/index.ts";
import { redactSecrets } from "./redact.ts";

export interface ExportRequest {
  /** The run's isolated environment (prepareIsolation(scratchDir).env). */
  env: Record<string, string>;
  workspace: string;
  /** The live database the run wrote (exports read it; never point this at the archive, it would change its hash). */
  databasePath: string;
  targetDir: string;
  secrets: readonly string[];
  /** Exports running at once; each is a 185 MB binary start (~1.5 s CPU). Default 2. */
  concurrency?: number;
  opencodeBinary?: string;
}

export interface ExportedSession {
  id: string;
  parentID: string | null;
  file: string;
}

const EXPORT_TIMEOUT_MS = 60_000;

/**
 * @example
 * const { env } = await prepareIsolation(scratchDir);
 * const { sessions } = await exportSessions({ env, workspace, databasePath, targetDir: join(runDir, "exports"), secrets });
 */
export async function exportSessions(request: ExportRequest): Promise<{ sessions: ExportedSession[] }> {
  const rows = listSessions(request.databasePath);
  const binary = request.opencodeBinary ?? resolveOpenCodeBinary();
  const sessions = await mapBounded(rows, request.concurrency ?? 2, async (row) => {
    const file = join(request.targetDir, `${row.id}.json`);
    // Unredacted, so beside the live database in the scratch folder, never under results/.
    const text = await exportOne(binary, row.id, request, join(dirname(request.databasePath), `export-${row.id}.json`));
    await writeFileAtomic(file, redactSecrets(text, request.secrets));
    return { id: row.id, parentID: row.parent_id, file };
  });
  return { sessions };
}

/**
 * stdout goes to a file, never a pipe: OpenCode 1.18 exits before a pipe has taken more than its first 64 KiB, so a
 * long session's export came back cut short (exit 0, invalid JSON). The raw file is removed once read.
 */
async function exportOne(binary: string, sessionID: string, request: ExportRequest, rawFile: string): Promise<string> {
  try {
    const child = Bun.spawn([binary, "export", sessionID], {
      cwd: request.workspace,
      env: { ...request.env, OPENCODE_DB: request.databasePath, PWD: request.workspace },
      stdin: "ignore",
      stdout: Bun.file(rawFile),
      stderr: "pipe",
    });
    const timer = setTimeout(() => void killProcessTree({ pid: child.pid }), EXPORT_TIMEOUT_MS);
    const stderr = await new Response(child.stderr).text();
    await child.exited;
    clearTimeout(timer);
    const stdout = await readFile(rawFile, "utf8").catch(() => "");
    if (child.exitCode === 0 && isJson(stdout)) return stdout;
    const reason = redactSecrets(stderr.trim().split("\n").slice(-5).join("\n"), request.secrets);
    throw new OpenCodeError(
      "OPENCODE_EXPORT_FAILED",
      `opencode export ${sessionID} failed (exit ${child.exitCode ?? child.signalCode}); the archived database still holds the session. Last log lines:\n${reason}`,
    );
  } finally {
    await rm(rawFile, { force: true });
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Like Promise.all over items.map(fn), with at most `limit` calls in flight; results keep the input order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
