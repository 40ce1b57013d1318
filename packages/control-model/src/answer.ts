// What the model says for one request, already in OpenAI terms; stream.ts and completion.ts lay it out on the wire.
import type { ControlTurn } from "./schema.ts";

export interface OpenAiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Answer {
  reasoning: string | undefined;
  text: string | undefined;
  toolCalls: OpenAiToolCall[];
  finishReason: "stop" | "tool_calls" | "length";
  /** Only what the control declared: no usage numbers are ever invented. */
  usage: OpenAiUsage | undefined;
}

/** The fixed answer to requests without tools: OpenCode's title generator and compaction summary. */
export const SUMMARY_ANSWER: Answer = {
  reasoning: undefined,
  text: "Control summary.",
  toolCalls: [],
  finishReason: "stop",
  usage: undefined,
};

/** The answer a (non-error) turn plays. Tool-call ids are fresh per call. */
export function answerTurn(turn: ControlTurn): Answer {
  const toolCalls = (turn.tools ?? []).map(
    (call): OpenAiToolCall => ({
      id: `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    }),
  );
  return {
    reasoning: turn.reasoning || undefined,
    text: turn.text || undefined,
    toolCalls,
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: turn.usage && {
      prompt_tokens: turn.usage.input,
      completion_tokens: turn.usage.output,
      total_tokens: turn.usage.input + turn.usage.output,
    },
  };
}
