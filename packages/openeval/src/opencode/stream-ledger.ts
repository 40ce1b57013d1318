// What the harness itself saw of a session in OpenCode's event stream, read on this machine from OpenCode's stdout:
// every finished step's usage and every tool call, by id. The agent can reach OpenCode's database, never this: the
// recording is checked against it once the session ends (recording/stream-integrity.ts).
import type { RunEvent } from "./schema.ts";

export interface TokenCounts {
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One `step_finish` event: OpenCode stores the part and then the message's totals, and only then runs on. */
export interface StreamStep {
  sessionID: string;
  messageID: string;
  usd: number;
  tokens: TokenCounts;
}

/** One `tool_use` event: a tool call that finished (completed or failed). */
export interface StreamToolCall {
  sessionID: string;
  /** The tool part's id in OpenCode's database. */
  id: string;
  tool: string;
}

export interface StreamLedger {
  steps: StreamStep[];
  tools: StreamToolCall[];
}

export function createStreamLedger(): StreamLedger {
  return { steps: [], tools: [] };
}

/** Keeps what an event says about usage and tool calls; an event without the ids it needs cannot be checked and is skipped. */
export function recordStreamEvent(ledger: StreamLedger, event: RunEvent): void {
  const part = event.part;
  const sessionID = event.sessionID;
  if (part === undefined || sessionID === undefined) return;
  if (event.type === "step_finish" && part.messageID !== undefined) {
    const tokens = part.tokens;
    ledger.steps.push({
      sessionID,
      messageID: part.messageID,
      usd: part.cost ?? 0,
      tokens: {
        input: tokens?.input ?? 0,
        output: tokens?.output ?? 0,
        reasoning: tokens?.reasoning ?? 0,
        cacheRead: tokens?.cache?.read ?? 0,
        cacheWrite: tokens?.cache?.write ?? 0,
      },
    });
  }
  if (event.type === "tool_use" && part.id !== undefined)
    ledger.tools.push({ sessionID, id: part.id, tool: part.tool ?? "unknown" });
}
