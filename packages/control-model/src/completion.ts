// The non-streaming answer: one OpenAI `chat.completion` object with the same content as the stream.
import type { Answer } from "./answer.ts";
import type { CompletionMeta } from "./stream.ts";

export function formatCompletion(answer: Answer, meta: CompletionMeta): object {
  const message = {
    role: "assistant",
    content: answer.text ?? null,
    ...(answer.reasoning !== undefined && { reasoning_content: answer.reasoning }),
    ...(answer.toolCalls.length > 0 && { tool_calls: answer.toolCalls }),
  };
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, finish_reason: answer.finishReason }],
    ...(answer.usage && { usage: answer.usage }),
  };
}
