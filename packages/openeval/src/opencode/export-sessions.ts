// Writes OpenCode's native export of every session in a run's database — the root and each child (subagent)
// session, which the root's export does not include — redacted, one JSON file per session.
//
// The export is built from the database here rather than by running `opencode export <id>`: that is one start of
// the 185 MB binary per session (≈2 s, most of the harness's overhead per eval run), to print what these
// rows already hold. The shape is OpenCode 1.18's (its session row → Info mapping, messages by creation time then
// id, parts by message then id, each with its ids appended, `JSON.stringify(…, null, 2)` and a newline); tests compare it byte
// for byte with the binary's own export of the same database (run-opencode.session-test.ts, test/helpers/native-export.ts).

import { Database } from "bun:sqlite";
import { join } from "node:path";
import * as z from "zod";
import { writeFileAtomic } from "../util/files.ts";
import { OpenCodeError } from "./errors.ts";
import { redactSecrets } from "./redact.ts";

export interface ExportRequest {
  /** The live database the run wrote (never the archive: opening it could change its sha256). */
  databasePath: string;
  targetDir: string;
  secrets: readonly string[];
}

export interface ExportedSession {
  id: string;
  parentID: string | null;
  file: string;
}

/** A JSON column: OpenCode stores objects and arrays as text. */
const JsonText = z.string().transform((text, context) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.addIssue({ code: "custom", message: "is not JSON" });
    return z.NEVER;
  }
});
const JsonObject = JsonText.pipe(z.record(z.string(), z.unknown()));

const SessionTableRow = z.object({
  id: z.string(),
  project_id: z.string(),
  workspace_id: z.string().nullable(),
  parent_id: z.string().nullable(),
  slug: z.string(),
  directory: z.string(),
  path: z.string().nullable(),
  title: z.string(),
  version: z.string(),
  share_url: z.string().nullable(),
  summary_additions: z.number().nullable(),
  summary_deletions: z.number().nullable(),
  summary_files: z.number().nullable(),
  summary_diffs: JsonText.nullable(),
  metadata: JsonText.nullable(),
  cost: z.number(),
  tokens_input: z.number(),
  tokens_output: z.number(),
  tokens_reasoning: z.number(),
  tokens_cache_read: z.number(),
  tokens_cache_write: z.number(),
  revert: JsonObject.nullable(),
  permission: JsonText.pipe(z.array(z.unknown())).nullable(),
  agent: z.string().nullable(),
  model: JsonObject.nullable(),
  time_created: z.number(),
  time_updated: z.number(),
  time_compacting: z.number().nullable(),
  time_archived: z.number().nullable(),
});
type SessionTableRow = z.infer<typeof SessionTableRow>;

const MessageTableRow = z.object({ id: z.string(), session_id: z.string(), data: JsonObject });
const PartTableRow = z.object({ id: z.string(), session_id: z.string(), message_id: z.string(), data: JsonObject });

/**
 * @example
 * const { sessions } = await exportSessions({ databasePath: outcome.databasePath, targetDir: join(evidenceDir, "native", "sessions"), secrets });
 */
export async function exportSessions(request: ExportRequest): Promise<{ sessions: ExportedSession[] }> {
  const db = new Database(request.databasePath, { readwrite: true, create: false });
  try {
    const rows = db.query("SELECT * FROM session ORDER BY parent_id IS NOT NULL, time_created, id").all();
    const sessions: ExportedSession[] = [];
    for (const raw of rows) {
      const row = parseRow(SessionTableRow, raw, "session");
      const file = join(request.targetDir, `${row.id}.json`);
      await writeFileAtomic(file, redactSecrets(exportText(db, row), request.secrets));
      sessions.push({ id: row.id, parentID: row.parent_id, file });
    }
    return { sessions };
  } finally {
    db.close();
  }
}

function exportText(db: Database, row: SessionTableRow): string {
  const messages = db
    .query("SELECT id, session_id, data FROM message WHERE session_id = ? ORDER BY time_created, id")
    .all(row.id);
  const parts = db
    .query("SELECT id, session_id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id")
    .all(row.id);
  const partsByMessage = new Map<string, Record<string, unknown>[]>();
  for (const raw of parts) {
    const part = parseRow(PartTableRow, raw, "part");
    const list = partsByMessage.get(part.message_id) ?? [];
    list.push({ ...part.data, id: part.id, sessionID: part.session_id, messageID: part.message_id });
    partsByMessage.set(part.message_id, list);
  }
  const exported = {
    info: sessionInfo(row),
    messages: messages.map((raw) => {
      const message = parseRow(MessageTableRow, raw, "message");
      return {
        info: { ...message.data, id: message.id, sessionID: message.session_id },
        parts: partsByMessage.get(message.id) ?? [],
      };
    }),
  };
  return `${JSON.stringify(exported, null, 2)}\n`;
}

/** OpenCode's session Info, keys in its order; absent optional fields are left out as JSON.stringify drops undefined. */
function sessionInfo(row: SessionTableRow): Record<string, unknown> {
  const hasSummary = row.summary_additions !== null || row.summary_deletions !== null || row.summary_files !== null;
  const revert = row.revert;
  return {
    id: row.id,
    slug: row.slug,
    projectID: row.project_id,
    workspaceID: row.workspace_id ?? undefined,
    directory: row.directory,
    path: row.path ?? undefined,
    parentID: row.parent_id ?? undefined,
    title: row.title,
    agent: row.agent ?? undefined,
    model: row.model ? { id: row.model.id, providerID: row.model.providerID, variant: row.model.variant } : undefined,
    version: row.version,
    summary: hasSummary
      ? {
          additions: row.summary_additions ?? 0,
          deletions: row.summary_deletions ?? 0,
          files: row.summary_files ?? 0,
          diffs: row.summary_diffs ?? undefined,
        }
      : undefined,
    cost: row.cost,
    tokens: {
      input: row.tokens_input,
      output: row.tokens_output,
      reasoning: row.tokens_reasoning,
      cache: { read: row.tokens_cache_read, write: row.tokens_cache_write },
    },
    share: row.share_url ? { url: row.share_url } : undefined,
    metadata: row.metadata ?? undefined,
    revert: revert
      ? {
          messageID: revert.messageID,
          partID: revert.partID || undefined,
          snapshot: revert.snapshot,
          diff: revert.diff,
        }
      : undefined,
    permission: row.permission ?? undefined,
    time: {
      created: row.time_created,
      updated: row.time_updated,
      compacting: row.time_compacting ?? undefined,
      archived: row.time_archived ?? undefined,
    },
  };
}

function parseRow<T extends z.ZodType>(schema: T, raw: unknown, table: string): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new OpenCodeError("exportRowUnreadable", {
    table,
    problem: `${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
  });
}
