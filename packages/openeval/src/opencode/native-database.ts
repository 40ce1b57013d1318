// Reads a run's live native OpenCode database (after the process exited): the sessions it holds.

import { Database } from "bun:sqlite";
import { type SessionRow, SessionRowSchema } from "./schema.ts";

/** All sessions, roots first, then children in creation order (OpenCode links subagent sessions by `parent_id`). */
export function listSessions(databasePath: string): SessionRow[] {
  const db = new Database(databasePath, { readwrite: true, create: false });
  try {
    const rows = db.query("SELECT id, parent_id FROM session ORDER BY parent_id IS NOT NULL, time_created, id").all();
    return rows.map((row) => SessionRowSchema.parse(row));
  } finally {
    db.close();
  }
}

/** The first root session, or null when OpenCode never got as far as creating one. */
export function readRootSessionID(databasePath: string): string | null {
  try {
    return listSessions(databasePath).find((session) => session.parent_id === null)?.id ?? null;
  } catch {
    return null; // no database, or no session table yet: OpenCode failed before its first write
  }
}

/**
 * Whether the model produced anything at all: a part (step start, text, reasoning, tool call) of an assistant
 * message. Read after the process ended, because a killed OpenCode loses the event lines still in its stdout buffer,
 * while the database has them (each part is stored before it is published).
 */
export function hasModelOutput(databasePath: string): boolean {
  try {
    const db = new Database(databasePath, { readwrite: true, create: false });
    try {
      const row = db
        .query(
          "SELECT 1 AS found FROM part JOIN message ON message.id = part.message_id WHERE json_extract(message.data, '$.role') = 'assistant' LIMIT 1",
        )
        .get();
      return row !== null;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/**
 * Whether the model asked for a tool call: its output for that step was complete and the agent was acting on it.
 * The stream shows a tool only once it finished, so a call still running at a kill is found here.
 */
export function hasToolCall(databasePath: string): boolean {
  try {
    const db = new Database(databasePath, { readwrite: true, create: false });
    try {
      return db.query("SELECT 1 AS found FROM part WHERE json_extract(data, '$.type') = 'tool' LIMIT 1").get() !== null;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}
