// A session's messages as the transcript shows them — a candidate's recording or a rubric judge's own session: text,
// reasoning, tool calls (input, output, error, subagent), steps. Constructed evidence (no native session) gets one
// synthetic session from its manifest.
import { openCodeStatus, type JudgeToolCall, type NativeMessage, type NativeSession } from "../recording/index.ts";
import type { SessionInfo, TranscriptMessage, TranscriptPart } from "./api-types.ts";

/** Longer texts are cut: a page stays small even when a tool printed megabytes. */
export const MAX_TEXT = 40_000;
export const CONSTRUCTED_SESSION = "constructed";

/** Session id → its transcript: root sessions (no parent) first, then subagents in the order they started. */
export async function toTranscripts(
  sessions: readonly NativeSession[],
  messagesOf: (sessionID: string) => Promise<readonly NativeMessage[]>,
): Promise<Map<string, TranscriptMessage[]>> {
  const ordered = [
    ...sessions.filter((session) => session.parentID === null),
    ...sessions.filter((session) => session.parentID !== null),
  ];
  const result = new Map<string, TranscriptMessage[]>();
  for (const session of ordered) result.set(session.id, (await messagesOf(session.id)).map(toTranscriptMessage));
  return result;
}

/** What the session list shows of each transcript; a session OpenCode does not know is the constructed one. */
export function toSessionInfos(
  transcripts: ReadonlyMap<string, readonly TranscriptMessage[]>,
  native: readonly NativeSession[],
): SessionInfo[] {
  return [...transcripts].map(([id, messages]) => {
    const session = native.find((candidate) => candidate.id === id);
    return {
      id,
      parentID: session?.parentID ?? null,
      title: session?.title ?? "Constructed evidence",
      messages: messages.length,
      cost: session?.cost ?? null,
      tokens: session?.tokens ?? null,
    };
  });
}

export function toTranscriptMessage(message: NativeMessage): TranscriptMessage {
  const info = message.info;
  const time = record(info.time);
  const model =
    typeof info.modelID === "string"
      ? `${typeof info.providerID === "string" ? `${info.providerID}/` : ""}${info.modelID}`
      : modelOf(info.model);
  return {
    id: info.id,
    sessionID: info.sessionID,
    role: info.role,
    agent: typeof info.agent === "string" ? info.agent : null,
    model,
    createdAt: numberOrNull(time?.created),
    completedAt: numberOrNull(time?.completed),
    cost: numberOrNull(info.cost),
    error: describeError(info.error),
    parts: message.parts.map(toPart),
  };
}

function toPart(part: NativeMessage["parts"][number]): TranscriptPart {
  switch (part.type) {
    case "text": {
      const [text, truncated] = cut(String(part.text ?? ""));
      return { kind: "text", id: part.id, text, synthetic: part.synthetic === true, truncated };
    }
    case "reasoning": {
      const [text, truncated] = cut(String(part.text ?? ""));
      return { kind: "reasoning", id: part.id, text, truncated };
    }
    case "tool":
      return toToolPart(part);
    case "step-start":
      return { kind: "step", id: part.id, phase: "start", cost: null, tokens: null, reason: null };
    case "step-finish":
      return {
        kind: "step",
        id: part.id,
        phase: "finish",
        cost: numberOrNull(part.cost),
        tokens: record(part.tokens),
        reason: typeof part.reason === "string" ? part.reason : null,
      };
    default:
      return { kind: "other", id: part.id, type: part.type, summary: summarizeOther(part) };
  }
}

function toToolPart(part: NativeMessage["parts"][number]): TranscriptPart {
  const state = record(part.state) ?? {};
  const time = record(state.time);
  const metadata = record(state.metadata);
  const [output, outputCut] = typeof state.output === "string" ? cut(state.output) : [null, false];
  const [error, errorCut] = typeof state.error === "string" ? cut(state.error) : [null, false];
  const start = numberOrNull(time?.start);
  const end = numberOrNull(time?.end);
  const child = metadata?.sessionId ?? metadata?.sessionID;
  return {
    kind: "tool",
    id: part.id,
    callID: typeof part.callID === "string" ? part.callID : null,
    tool: String(part.tool ?? "tool"),
    status: isStatus(state.status) ? state.status : "pending",
    title: typeof state.title === "string" ? state.title : null,
    input: state.input ?? null,
    output,
    error,
    durationMs: start !== null && end !== null ? end - start : null,
    childSessionID: typeof child === "string" ? child : null,
    truncated: outputCut || errorCut,
  };
}

/** One user turn (the prompt), the recorded tool calls, and the final answer. */
export function constructedTranscript(
  prompt: string,
  tools: readonly JudgeToolCall[],
  response: string,
): TranscriptMessage[] {
  const message = (id: string, role: string, parts: TranscriptPart[]): TranscriptMessage => ({
    id,
    sessionID: CONSTRUCTED_SESSION,
    role,
    agent: null,
    model: null,
    createdAt: null,
    completedAt: null,
    cost: null,
    error: null,
    parts,
  });
  const text = (id: string, value: string): TranscriptPart => {
    const [cutText, truncated] = cut(value);
    return { kind: "text", id, text: cutText, synthetic: false, truncated };
  };
  const toolParts = tools.map((tool): TranscriptPart => {
    const [output, outputCut] = tool.content === undefined ? [null, false] : cut(tool.content);
    const [error, errorCut] = tool.error === undefined ? [null, false] : cut(tool.error);
    return {
      kind: "tool",
      id: tool.id,
      callID: tool.id,
      tool: tool.name,
      status: openCodeStatus(tool.status),
      title: null,
      input: tool.input,
      output,
      error,
      durationMs: tool.durationMs ?? null,
      childSessionID: null,
      truncated: outputCut || errorCut,
    };
  });
  return [
    message("prompt", "user", [text("prompt-text", prompt)]),
    message("answer", "assistant", [...toolParts, text("response-text", response)]),
  ];
}

function cut(text: string): [string, boolean] {
  return text.length > MAX_TEXT ? [text.slice(0, MAX_TEXT), true] : [text, false];
}

function summarizeOther(part: NativeMessage["parts"][number]): string {
  const { id: _id, type: _type, sessionID: _session, messageID: _message, ...rest } = part as Record<string, unknown>;
  const text = JSON.stringify(rest);
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}

function describeError(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  const data = record(record(error)?.data);
  const message = data?.message ?? record(error)?.message;
  const name = record(error)?.name;
  if (typeof message === "string") return typeof name === "string" ? `${name}: ${message}` : message;
  return JSON.stringify(error);
}

function modelOf(value: unknown): string | null {
  const model = record(value);
  if (!model || typeof model.modelID !== "string") return null;
  return typeof model.providerID === "string" ? `${model.providerID}/${model.modelID}` : model.modelID;
}

function isStatus(value: unknown): value is "pending" | "running" | "completed" | "error" {
  return value === "pending" || value === "running" || value === "completed" || value === "error";
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
