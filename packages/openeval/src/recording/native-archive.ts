// Lazy, verified access to the archived native OpenCode database and session exports of one recording.
// Each database() call opens its own read-only copy, so a judge can never alter the archive. The same queries read
// an archived database outside a recording: a rubric judge's own session.
import { Database } from "bun:sqlite";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { EvidenceError } from "./errors.ts";
import type { Evidence } from "./evidence-reader.ts";
import { extractNative, type StepError, type StreamError } from "./native-extract.ts";
import type { NativeArchive, ToolCall } from "./schema.ts";
import type { OpenCodeClient, OpenCodeServer } from "../opencode/index.ts";

export interface NativeSession {
  id: string;
  parentID: string | null;
  title: string;
  directory: string;
  cost: number | null;
  tokens: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number };
  timeCreated: number;
  timeUpdated: number;
}

/** A message as OpenCode stores it (`info`: the message data with its id) with its parts in order. */
export interface NativeMessage {
  info: Record<string, unknown> & { id: string; sessionID: string; role: string };
  parts: (Record<string, unknown> & { id: string; type: string })[];
}

export interface NativeEvent {
  sessionID: string;
  sequence: number;
  type: string;
  time: number | null;
  data: unknown;
}

export interface NativeArchiveReader {
  database(): Promise<Database>;
  /** The pinned OpenCode SDK client, served over its own disposable copy of the database. */
  sdk(): Promise<OpenCodeClient>;
  /** The OpenAPI document of the pinned OpenCode server. */
  schema(): Promise<unknown>;
  sessions(): Promise<NativeSession[]>;
  messages(sessionID?: string): Promise<NativeMessage[]>;
  export(sessionID?: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function openNativeArchive(
  evidence: Evidence,
  archive: NativeArchive,
  scratch: string,
): Promise<NativeArchiveReader> {
  const handles: Database[] = [];
  let copies = 0;
  let own: Database | null = null;

  async function database(): Promise<Database> {
    const bytes = await evidence.readVerified(archive.database.file, archive.database.sha256);
    const path = join(scratch, `opencode-copy-${++copies}.db`);
    await writeFile(path, bytes);
    const handle = new Database(path, { readonly: true });
    handle.run("PRAGMA query_only = ON");
    handles.push(handle);
    return handle;
  }
  const shared = async () => (own ??= await database());
  let server: Promise<OpenCodeServer> | null = null;
  const served = () =>
    (server ??= (async () => {
      const copy = join(scratch, `opencode-sdk-${++copies}.db`);
      await writeFile(copy, await evidence.readVerified(archive.database.file, archive.database.sha256));
      // Loaded on first use: the SDK is most of a code-judge worker's start-up, and few judges call native.sdk().
      const { serveOpenCode } = await import("../opencode/index.ts");
      return serveOpenCode({ scratchDir: join(scratch, "sdk"), database: copy });
    })());
  const rootID = (sessionID?: string) => {
    const id = sessionID ?? archive.rootSessionID;
    if (!id) throw new EvidenceError("noRootSession");
    return id;
  };

  return {
    database,
    sdk: async () => (await served()).client,
    schema: async () => (await served()).schema(),
    sessions: async () => readNativeSessions(await shared()),
    messages: async (sessionID) => readNativeMessages(await shared(), rootID(sessionID), archive.stepErrors),
    async export(sessionID) {
      const id = rootID(sessionID);
      const session = archive.sessions.find((candidate) => candidate.id === id);
      if (!session)
        throw new EvidenceError("sessionNotExported", { id, sessions: archive.sessions.map((item) => item.id) });
      return JSON.parse(new TextDecoder().decode(await evidence.readVerified(session.export, session.sha256)));
    },
    async close() {
      for (const handle of handles) handle.close();
      if (server) await (await server).close();
    },
  };
}

/** Every session of an OpenCode database, in the order they started. */
export function readNativeSessions(db: Database): NativeSession[] {
  return (db.query("SELECT * FROM session ORDER BY time_created, id").all() as Record<string, unknown>[]).map(
    toSession,
  );
}

/** One session's messages with their parts, in order; a rejected step shows the error the event stream reported. */
export function readNativeMessages(
  db: Database,
  sessionID: string,
  stepErrors: readonly StepError[] = [],
): NativeMessage[] {
  const messages = db
    .query("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id")
    .all(sessionID) as { id: string; data: string }[];
  const parts = db
    .query("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY time_created, id")
    .all(sessionID) as { id: string; message_id: string; data: string }[];
  const errors = new Map(stepErrors.map((error) => [error.messageID, error]));
  return messages.map((message) => ({
    info: withStepError(
      { ...(JSON.parse(message.data) as Record<string, unknown>), id: message.id, sessionID } as NativeMessage["info"],
      errors.get(message.id),
    ),
    parts: parts
      .filter((part) => part.message_id === message.id)
      .map(
        (part) =>
          ({ ...(JSON.parse(part.data) as Record<string, unknown>), id: part.id }) as NativeMessage["parts"][number],
      ),
  }));
}

/** An archived OpenCode session read whole, outside any recording (a rubric judge's, kept in its judge run's folder). */
export interface SessionDatabase {
  /** null when OpenCode never created a session. */
  rootSessionID: string | null;
  sessions: NativeSession[];
  /** Session id → its messages. */
  messages: Map<string, NativeMessage[]>;
  tools: ToolCall[];
  /** The root session's final answer; "" when there is none. */
  response: string;
}

/**
 * Reads an archived database (rollback journal, as archiveDatabase leaves it) read-only. `streamErrors`: the errors
 * the session's event stream reported, to name each rejected step's.
 * @example readSessionDatabase(join(judgeRunDir, "rubric", "opencode.db")).messages.get(rootSessionID)
 */
export function readSessionDatabase(path: string, streamErrors: readonly StreamError[] = []): SessionDatabase {
  const native = extractNative(path, { streamErrors });
  // OpenCode that failed before creating a session may not even have made its tables.
  if (native.sessions.length === 0)
    return { rootSessionID: null, sessions: [], messages: new Map(), tools: [], response: "" };
  const db = new Database(path, { readonly: true });
  try {
    const sessions = readNativeSessions(db);
    const messages = new Map(
      sessions.map((session) => [session.id, readNativeMessages(db, session.id, native.stepErrors)]),
    );
    return { rootSessionID: native.rootSessionID, sessions, messages, tools: native.tools, response: native.response };
  } finally {
    db.close();
  }
}

/** The recording's OpenCode events, verified against the manifest; [] when it has none. */
export async function readEvents(evidence: Evidence): Promise<NativeEvent[]> {
  const file = evidence.manifest.events;
  if (!file) return [];
  const text = new TextDecoder().decode(await evidence.readVerified(file.file, file.sha256));
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as NativeEvent);
}

function toSession(row: Record<string, unknown>): NativeSession {
  const number = (key: string) => (typeof row[key] === "number" ? (row[key] as number) : 0);
  return {
    id: String(row.id),
    parentID: typeof row.parent_id === "string" ? row.parent_id : null,
    title: String(row.title ?? ""),
    directory: String(row.directory ?? ""),
    cost: typeof row.cost === "number" ? row.cost : null,
    tokens: {
      input: number("tokens_input"),
      output: number("tokens_output"),
      reasoning: number("tokens_reasoning"),
      cacheRead: number("tokens_cache_read"),
      cacheWrite: number("tokens_cache_write"),
    },
    timeCreated: number("time_created"),
    timeUpdated: number("time_updated"),
  };
}

/** A rejected step keeps no error in the database; the one the event stream reported is shown in its place. */
function withStepError(
  info: NativeMessage["info"],
  error: { name: string; message: string } | undefined,
): NativeMessage["info"] {
  if (!error || (info.error !== undefined && info.error !== null)) return info;
  return { ...info, error: { name: error.name, data: { message: error.message }, source: "event stream" } };
}
