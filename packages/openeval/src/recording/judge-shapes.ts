// What a judge sees of a recording, in OpenEval 0.5's public JudgeContext shapes: tool calls with
// its status vocabulary, events as `{ sequence, time, event }`, files with `symlink`, metrics with `byName`,
// `compactions {…}`, `complete` and `sessions`. A member OpenCode 1.x cannot fill throws when read, so a judge written
// for OpenEval fails loudly instead of scoring on a missing value; such members are not enumerable, so returning a
// whole object from a judge still serializes.
import type { RunMetrics } from "../records/index.ts";
import { EvidenceError } from "./errors.ts";
import type { Evidence } from "./evidence-reader.ts";
import { measureTools } from "./metrics.ts";
import type { NativeEvent } from "./native-archive.ts";
import type { FileEntry, ToolCall } from "./schema.ts";

/** OpenEval's tool states: `preparing` (input still streaming), `called` (running), `succeeded`, `failed`. */
export type JudgeToolStatus = "preparing" | "called" | "succeeded" | "failed";

export interface JudgeToolCall {
  id: string;
  sessionID?: string;
  name: string;
  /** The assistant message that made the call; reading it throws on recordings made before it was kept. */
  assistantMessageId: string;
  status: JudgeToolStatus;
  input: unknown;
  /** The tool's output (OpenCode's `output`); undefined until the call ends. */
  content?: string;
  error?: string;
  startedAt?: number;
  completedAt?: number;
  durationMs?: number;
  /** Whether the tool ran (false while its input was still being prepared). */
  executed: boolean;
  /** OpenCode's own fields, unchanged: OpenCode 1.x `metadata`. */
  metadata?: unknown;
}

export interface RecordedEvent {
  sequence: number;
  /** ISO time; null when OpenCode recorded none for the event. */
  time: string | null;
  sessionID: string;
  /** An OpenCode 1.x event (`type` as OpenCode 1.x names it, its `data`); OpenEval's are OpenCode V2 events. */
  event: { type: string; data: unknown };
}

/** A file of a snapshot: OpenEval's `{ path, bytes, sha256?, symlink? }` plus this recorder's kind, mode and omission. */
export type RecordedFile = FileEntry & { bytes: number; sha256?: string; symlink?: string };

export type ToolMetrics = RunMetrics["tools"];

/** The metrics a judge reads: the recorded RunMetrics with OpenEval's members added. */
export type JudgeMetrics = Omit<RunMetrics, "compactions" | "tools" | "tokens"> & {
  scope: "candidate";
  /** False for constructed or checkpoint evidence, without request counts, or with a tool call left unfinished. */
  complete: boolean;
  sessions: number;
  tools: ToolMetrics & { byName: Record<string, ToolMetrics> };
  /** OpenCode 1.x records a compaction part when one starts, not how it ended: `completed` and `failed` throw on read. */
  compactions: { started: number; completed: number; failed: number } | null;
  tokens: RunMetrics["tokens"] & { cache: { read: number | null; write: number | null } };
  cost: RunMetrics["cost"] & { complete: boolean };
  evidence: { directory: string; hash: string };
};

const STATUS: Record<ToolCall["status"], JudgeToolStatus> = {
  pending: "preparing",
  running: "called",
  completed: "succeeded",
  error: "failed",
};

/** OpenCode 1.x's name for a judge-facing status (what the viewer shows, as OpenCode's own sessions do). */
export function openCodeStatus(status: JudgeToolStatus): ToolCall["status"] {
  return (Object.keys(STATUS) as ToolCall["status"][]).find((key) => STATUS[key] === status)!;
}

/** Defines `name` on `target` as a non-enumerable getter that throws the error `why` makes. */
export function unavailable<T extends object>(target: T, name: string, why: () => EvidenceError): T {
  return Object.defineProperty(target, name, {
    enumerable: false,
    get() {
      throw why();
    },
  });
}

export function toJudgeTool(tool: ToolCall): JudgeToolCall {
  const view: Omit<JudgeToolCall, "assistantMessageId"> = {
    id: tool.id,
    ...(tool.sessionID === null ? {} : { sessionID: tool.sessionID }),
    name: tool.name,
    status: STATUS[tool.status],
    input: tool.input,
    ...(tool.output === null ? {} : { content: tool.output }),
    ...(tool.error === null ? {} : { error: tool.error }),
    ...(tool.startedAt === null ? {} : { startedAt: tool.startedAt }),
    ...(tool.completedAt === null ? {} : { completedAt: tool.completedAt }),
    ...(tool.durationMs === null ? {} : { durationMs: tool.durationMs }),
    executed: tool.status !== "pending",
    ...(tool.metadata === undefined ? {} : { metadata: tool.metadata }),
  };
  if (tool.messageID !== undefined) return { ...view, assistantMessageId: tool.messageID };
  return unavailable(
    view,
    "assistantMessageId",
    () => new EvidenceError("toolCallWithoutMessageId", { toolId: tool.id }),
  ) as JudgeToolCall;
}

export function toRecordedEvent(event: NativeEvent): RecordedEvent {
  return {
    sequence: event.sequence,
    time: event.time === null ? null : new Date(event.time).toISOString(),
    sessionID: event.sessionID,
    event: { type: event.type, data: event.data },
  };
}

export function toRecordedFile(entry: FileEntry): RecordedFile {
  if (entry.kind === "file") return entry;
  return { ...entry, bytes: new TextEncoder().encode(entry.target).length, symlink: entry.target };
}

/** `events`: the recording's events, which name every session that did anything. */
export function judgeMetrics(evidence: Evidence, events: readonly RecordedEvent[]): JudgeMetrics {
  const manifest = evidence.manifest;
  const metrics = manifest.metrics;
  const tools = manifest.tools;
  const byName = Object.fromEntries(
    [...Map.groupBy(tools, (tool) => tool.name)]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, calls]) => [name, measureTools(calls)]),
  );
  const compactions =
    metrics.compactions === null
      ? null
      : (["completed", "failed"] as const).reduce(
          (view, name) => unavailable(view, name, () => new EvidenceError("compactionEndUnrecorded", { field: name })),
          { started: metrics.compactions } as NonNullable<JudgeMetrics["compactions"]>,
        );
  const view: JudgeMetrics = {
    ...metrics,
    scope: "candidate",
    complete:
      manifest.kind === "candidate" &&
      manifest.native !== null &&
      metrics.requests !== null &&
      tools.every((tool) => tool.status === "completed" || tool.status === "error"),
    sessions: Math.max(manifest.native?.sessions.length ?? 0, new Set(events.map((event) => event.sessionID)).size),
    tools: { ...metrics.tools, byName },
    compactions,
    tokens: { ...metrics.tokens, cache: { read: metrics.tokens.cacheRead, write: metrics.tokens.cacheWrite } },
    cost: { ...metrics.cost, complete: metrics.cost.usd !== null },
    evidence: { directory: evidence.directory, hash: evidence.hash },
  };
  unavailable(view.cost, "reportedUSD", () => new EvidenceError("reportedCostUnkept"));
  return view;
}
