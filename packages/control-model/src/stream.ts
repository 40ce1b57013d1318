// Server-sent events for a streaming answer: OpenAI `chat.completion.chunk` objects, then `data: [DONE]`.
import type { Answer } from "./answer.ts";

export interface CompletionMeta {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
}

/**
 * The SSE events of one answer, in order: reasoning, text, each tool call, the finish reason, the usage chunk
 * (only when the control declared usage; OpenCode always asks for it with `stream_options.include_usage`), `[DONE]`.
 */
export function formatSseEvents(answer: Answer, meta: CompletionMeta): string[] {
  const deltas: Record<string, unknown>[] = [];
  if (answer.reasoning !== undefined) deltas.push({ reasoning_content: answer.reasoning });
  if (answer.text !== undefined) deltas.push({ content: answer.text });
  answer.toolCalls.forEach((call, index) => deltas.push({ tool_calls: [{ index, ...call }] }));
  // The first delta carries the role; an empty turn still sends that one delta.
  deltas[0] = { role: "assistant", ...deltas[0] };

  const chunk = (choices: unknown[], extra: object = {}) => ({
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices,
    ...extra,
  });
  const chunks = [
    ...deltas.map((delta) => chunk([{ index: 0, delta, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, finish_reason: answer.finishReason }]),
    ...(answer.usage ? [chunk([], { usage: answer.usage })] : []),
  ];
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), "data: [DONE]\n\n"];
}
