// Reads a checkpointed native OpenCode 1.18.33 database into what a recording keeps: the session tree, the final root
// answer, every tool call, the event stream and the run's metrics. Shapes: those OpenCode 1.18.33 writes,
// checked against real runs (see native-extract.session-test.ts).
import { Database } from "bun:sqlite";
import * as z from "zod";
import { describeZodIssues } from "../util/zod-issues.ts";
import { EvidenceError } from "./errors.ts";
import type { NativeEvent } from "./native-archive.ts";
import { measureNative, type ModelStep, type NativeMetrics } from "./native-metrics.ts";

/** A model step with the message and session it is stored as. */
export type RecordedStep = ModelStep & { messageID: string; sessionID: string };
import type { ToolCall } from "./schema.ts";
import { findToolCallText, type ToolCallText } from "./tool-call-text.ts";

/** An error OpenCode reported in its event stream for a step of a session (it keeps none for attempts it moved past). */
export interface StreamError {
  sessionID: string | null;
  /** Epoch ms of the event. */
  at: number | null;
  name: string;
  message: string;
}

/** A rejected step's error, matched from the event stream: the transcript shows it on that step. */
export interface StepError {
  messageID: string;
  name: string;
  message: string;
}

export interface ExtractOptions {
  /** false: the model has no pricing, so OpenCode's $0 is not a cost (see measureNative). Default true. */
  priced?: boolean;
  /** The run's error events, to name the error of each rejected step. */
  streamErrors?: readonly StreamError[];
  /** Retries the run's log showed (OpenCode 1.18 persists none); absent: the recording cannot tell. */
  retries?: number;
}

export interface NativeExtract {
  /** The session without a parent (the earliest, if several); null when OpenCode never created one. */
  rootSessionID: string | null;
  sessions: { id: string; parentID: string | null }[];
  /** Text of the root session's last answering assistant message; "" when there is none. */
  response: string;
  tools: ToolCall[];
  /** Every assistant message of every session, as a model step. */
  steps: RecordedStep[];
  events: NativeEvent[];
  metrics: NativeMetrics;
  /** Errors of steps whose message in the database holds none (rejected attempts OpenCode moved past). */
  stepErrors: StepError[];
  /** Assistant messages whose text has a tool call's shape: calls the provider's server did not parse. */
  toolCallText: ToolCallText[];
}

// The rows and JSON `data` shapes read here. Loose: OpenCode adds fields freely; only what we read is checked.
const SessionRowSchema = z.object({ id: z.string(), parent_id: z.string().nullable() });
const MessageRowSchema = z.object({ id: z.string(), session_id: z.string(), data: z.string() });
const PartRowSchema = z.object({
  id: z.string(),
  message_id: z.string(),
  session_id: z.string(),
  time_created: z.number(),
  data: z.string(),
});
const EventRowSchema = z.object({
  id: z.string(),
  aggregate_id: z.string(),
  seq: z.number(),
  type: z.string(),
  data: z.string(),
});

const MessageSchema = z.looseObject({
  role: z.string(),
  /** True on compaction summaries (`mode: "compaction"`). */
  summary: z.boolean().optional(),
  /** How the step ended: `stop`, `tool-calls`, `length` (cut at the output limit), … */
  finish: z.string().optional(),
  cost: z.number().optional(),
  /** `total` is the provider's totalTokens: OpenCode leaves it out (and stores zeros) when no usage was reported. */
  tokens: z
    .looseObject({
      total: z.number().optional(),
      input: z.number().optional(),
      output: z.number().optional(),
      reasoning: z.number().optional(),
      cache: z.looseObject({ read: z.number().optional(), write: z.number().optional() }).optional(),
    })
    .optional(),
  time: z.looseObject({ created: z.number().optional(), completed: z.number().optional() }).optional(),
  error: z.unknown().optional(),
});
const PartSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  synthetic: z.boolean().optional(),
  ignored: z.boolean().optional(),
  // Read only to time the model's generation: a part type shaping them otherwise is not an error, it has no time.
  /** Text and reasoning parts: their first and last delta. */
  time: z.looseObject({ start: z.number().optional(), end: z.number().optional() }).optional().catch(undefined),
  /** Tool parts: `time.start` is when the tool began running, its input complete. */
  state: z
    .looseObject({ time: z.looseObject({ start: z.number().optional() }).optional() })
    .optional()
    .catch(undefined),
});
const ToolPartSchema = z.looseObject({
  tool: z.string(),
  state: z.looseObject({
    status: z.enum(["pending", "running", "completed", "error"]),
    input: z.unknown().optional(),
    output: z.string().optional(),
    error: z.string().optional(),
    metadata: z.unknown().optional(),
    time: z.looseObject({ start: z.number().optional(), end: z.number().optional() }).optional(),
  }),
});

type Message = z.infer<typeof MessageSchema> & { id: string; sessionID: string };
type Part = z.infer<typeof PartSchema> & {
  id: string;
  messageID: string;
  sessionID: string;
  created: number;
  raw: unknown;
};

/**
 * Opens the database read-only, reads it whole and closes it. Checkpoint the WAL first (OpenCode leaves almost
 * everything in `opencode.db-wal`). Tables OpenCode never created (it failed before migrating) read as empty.
 *
 * @example
 * const extract = extractNative(join(runDir, "opencode.db"));
 * extract.response; // "Done: notes/hello.txt is written."
 * extract.metrics.cost.usd; // 0.00375, or null when the provider reported no usage
 */
export function extractNative(databasePath: string, options: ExtractOptions = {}): NativeExtract {
  const db = new Database(databasePath, { readonly: true });
  try {
    const tables = new Set(
      (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    const read = <T>(table: string, schema: z.ZodType<T>, sql: string): T[] =>
      tables.has(table)
        ? db
            .query(sql)
            .all()
            .map((row) => parse(schema, row, `${table} row`))
        : [];

    const sessions = read(
      "session",
      SessionRowSchema,
      "SELECT id, parent_id FROM session ORDER BY time_created, id",
    ).map((row) => ({
      id: row.id,
      parentID: row.parent_id,
    }));
    const messages = read(
      "message",
      MessageRowSchema,
      "SELECT id, session_id, data FROM message ORDER BY time_created, id",
    ).map(toMessage);
    const parts = read(
      "part",
      PartRowSchema,
      "SELECT id, message_id, session_id, time_created, data FROM part ORDER BY time_created, id",
    ).map(toPart);
    const events = orderEvents(
      read("event", EventRowSchema, "SELECT id, aggregate_id, seq, type, data FROM event").map(toEvent),
    );

    const rootSessionID = sessions.find((session) => session.parentID === null)?.id ?? null;
    const assistants = messages.filter((message) => message.role === "assistant");
    const tools = parts.filter((part) => part.type === "tool").map(toToolCall);
    const partsByMessage = Map.groupBy(parts, (part) => part.messageID);
    const found = assistants.map((message) => toModelStep(message, partsByMessage.get(message.id) ?? []));
    const stepErrors = matchStepErrors(assistants, found, options.streamErrors ?? []);
    // An attempt the stream reports an error for failed, even when the run was ended before OpenCode closed it.
    const failedIds = new Set(stepErrors.map((error) => error.messageID));
    const steps = found.map((step, index) => (failedIds.has(assistants[index]!.id) ? { ...step, failed: true } : step));
    return {
      rootSessionID,
      sessions,
      response: readResponse(
        assistants.filter((message) => message.sessionID === rootSessionID),
        parts,
      ),
      tools,
      steps,
      events,
      metrics: measureNative({
        steps,
        tools,
        compactions: countCompactions(parts),
        retries: countRetries(parts, events, options.retries),
        priced: options.priced ?? true,
      }),
      stepErrors,
      toolCallText: assistants.flatMap((message) => {
        const found = findToolCallText(message.id, visibleText(partsByMessage.get(message.id) ?? []));
        return found ? [found] : [];
      }),
    };
  } finally {
    db.close();
  }
}

/** The last assistant message that answers (compaction summaries are bookkeeping, not answers); its visible text. */
function readResponse(rootAssistants: readonly Message[], parts: readonly Part[]): string {
  const last = rootAssistants.findLast((message) => message.summary !== true);
  if (!last) return "";
  return visibleText(parts.filter((part) => part.messageID === last.id));
}

/** The text a message shows (not OpenCode's synthetic or ignored parts). */
function visibleText(parts: readonly Part[]): string {
  return parts
    .filter((part) => part.type === "text" && part.synthetic !== true && part.ignored !== true)
    .map((part) => part.text ?? "")
    .join("\n\n");
}

/** Parts that are model output (not the step-start/finish bookkeeping); reported usage also shows the model answered. */
const OUTPUT_PARTS = new Set(["text", "reasoning", "tool"]);

function toModelStep(message: Message, parts: readonly Part[]): RecordedStep {
  const tokens = message.tokens;
  const reportedUsage = tokens?.total !== undefined;
  const producedOutput = reportedUsage || parts.some((part) => OUTPUT_PARTS.has(part.type));
  const hasError = message.error !== undefined && message.error !== null;
  // OpenCode compacts past a context-overflow rejection: the attempt stays as an empty, completed step without a finish.
  const rejected = message.time?.completed !== undefined && message.finish === undefined && !producedOutput;
  return {
    messageID: message.id,
    sessionID: message.sessionID,
    usage: !reportedUsage
      ? null
      : {
          usd: message.cost ?? null,
          input: tokens.input ?? 0,
          output: tokens.output ?? 0,
          reasoning: tokens.reasoning ?? 0,
          cacheRead: tokens.cache?.read ?? 0,
          cacheWrite: tokens.cache?.write ?? 0,
        },
    created: message.time?.created ?? null,
    completed: message.time?.completed ?? null,
    // A step the provider reported usage for was answered, whatever OpenCode did with it afterwards (a compaction
    // summary it then marks with the overflow's error): it counts as the request that succeeded.
    failed: (hasError && !reportedUsage) || rejected,
    finish: message.finish ?? null,
    producedOutput,
    generating: generationSpan(parts),
  };
}

/**
 * When the model streamed this step's output, first byte to last: a text or reasoning part starts at its first delta
 * and ends at its last; a tool call starts when its input begins (the part is created) and ends when its input is
 * complete (the tool starts running). The wait before the first byte (queueing, prompt processing) and the tools'
 * own running time are not the model's generation. Null when the step streamed nothing datable.
 */
function generationSpan(parts: readonly Part[]): [number, number] | null {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const part of parts) {
    if ((part.type === "text" || part.type === "reasoning") && part.synthetic !== true) {
      if (part.time?.start !== undefined) starts.push(part.time.start);
      if (part.time?.end !== undefined) ends.push(part.time.end);
    } else if (part.type === "tool") {
      starts.push(part.created);
      const started = part.state?.time?.start;
      if (started !== undefined) ends.push(started);
    }
  }
  if (starts.length === 0 || ends.length === 0) return null;
  const [first, last] = [Math.min(...starts), Math.max(...ends)];
  return last >= first ? [first, last] : null;
}

/**
 * Each stream error goes to the latest step of its session created before it that produced no output, has no error
 * in the database and none matched yet (errors and attempts come in the same order).
 */
function matchStepErrors(
  assistants: readonly Message[],
  steps: readonly ModelStep[],
  errors: readonly StreamError[],
): StepError[] {
  const open = assistants.filter(
    (message, index) =>
      steps[index]!.producedOutput === false && (message.error === undefined || message.error === null),
  );
  const matched: StepError[] = [];
  const taken = new Set<string>();
  for (const error of errors) {
    const step = open.findLast(
      (message) =>
        !taken.has(message.id) &&
        message.sessionID === error.sessionID &&
        (error.at === null || (message.time?.created ?? 0) <= error.at),
    );
    if (!step) continue;
    taken.add(step.id);
    matched.push({ messageID: step.id, name: error.name, message: error.message });
  }
  return matched;
}

function toToolCall(part: Part): ToolCall {
  const { tool, state } = parse(ToolPartSchema, part.raw, `tool part ${part.id}`);
  const startedAt = state.time?.start ?? null;
  const completedAt = state.time?.end ?? null;
  return {
    id: part.id,
    sessionID: part.sessionID,
    messageID: part.messageID,
    name: tool,
    status: state.status,
    input: state.input ?? {},
    output: state.output ?? null,
    error: state.error ?? null,
    metadata: state.metadata,
    startedAt,
    completedAt,
    durationMs: startedAt !== null && completedAt !== null ? completedAt - startedAt : null,
  };
}

/**
 * One `compaction` part per compaction, auto (overflow) or requested: it is written before the summary step runs, so
 * a compaction whose summary failed still counts. The summary step itself is an assistant message, counted in requests.
 */
function countCompactions(parts: readonly Part[]): number {
  return parts.filter((part) => part.type === "compaction").length;
}

/**
 * 1.18.33's `run` loop keeps retries in memory only (session status "retry", never persisted): a step that failed
 * after 5 retries is one assistant message with `error`. The run's log shows them (`logged`, see run-tracker.ts);
 * added are the two persisted forms the binary can write — `retry` parts and `session.retry.scheduled` events —
 * which real runs so far never contained. Null when neither the log nor the database tells.
 */
function countRetries(
  parts: readonly Part[],
  events: readonly NativeEvent[],
  logged: number | undefined,
): number | null {
  const persisted =
    parts.filter((part) => part.type === "retry").length +
    events.filter((event) => event.type.startsWith("session.retry.scheduled")).length;
  return logged === undefined && persisted === 0 ? null : (logged ?? 0) + persisted;
}

/**
 * (time, session, seq) order. Only `message.part.updated` events carry a `time`; the others are placed by the time in
 * their payload (`info.time`), and within a session a time never goes below an earlier event's, so seq order holds.
 */
function orderEvents(events: NativeEvent[]): NativeEvent[] {
  const sortTime = new Map<NativeEvent, number>();
  const bySession = Map.groupBy(events, (event) => event.sessionID);
  for (const sessionEvents of bySession.values()) {
    let floor = Number.NEGATIVE_INFINITY;
    for (const event of sessionEvents.sort((a, b) => a.sequence - b.sequence)) {
      floor = Math.max(floor, event.time ?? payloadTime(event.data) ?? floor);
      sortTime.set(event, floor);
    }
  }
  const time = (event: NativeEvent) => sortTime.get(event) ?? 0;
  return events.sort(
    (a, b) =>
      time(a) - time(b) ||
      (a.sessionID < b.sessionID ? -1 : a.sessionID > b.sessionID ? 1 : 0) ||
      a.sequence - b.sequence,
  );
}

function payloadTime(data: unknown): number | null {
  const time = (data as { info?: { time?: Record<string, unknown> } } | null)?.info?.time;
  const candidate = time?.completed ?? time?.updated ?? time?.created;
  return typeof candidate === "number" ? candidate : null;
}

function toEvent(row: z.infer<typeof EventRowSchema>): NativeEvent {
  const data = parseJSON(row.data, `event ${row.id}`);
  const time = (data as { time?: unknown } | null)?.time;
  return {
    sessionID: row.aggregate_id,
    sequence: row.seq,
    type: row.type,
    time: typeof time === "number" ? time : null,
    data,
  };
}

function toMessage(row: z.infer<typeof MessageRowSchema>): Message {
  const data = parse(MessageSchema, parseJSON(row.data, `message ${row.id}`), `message ${row.id}`);
  return { ...data, id: row.id, sessionID: row.session_id };
}

function toPart(row: z.infer<typeof PartRowSchema>): Part {
  const raw = parseJSON(row.data, `part ${row.id}`);
  return {
    ...parse(PartSchema, raw, `part ${row.id}`),
    id: row.id,
    messageID: row.message_id,
    sessionID: row.session_id,
    created: row.time_created,
    raw,
  };
}

function parseJSON(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new EvidenceError("nativeJsonInvalid", { what }, { cause });
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new EvidenceError(
    "nativeShapeUnexpected",
    { what, problems: describeZodIssues(result.error) },
    { cause: result.error },
  );
}
