// Recognizes a provider's "the request does not fit the model's context" rejection in an OpenCode error event,
// whatever server answered it (OpenAI, Anthropic, llama.cpp, vLLM, Ollama), and reads both numbers where it gives them.
import { isRecord } from "../util/is-record.ts";

export interface ContextOverflow {
  /** The context the server allows (tokens); null when the provider did not say. */
  limit: number | null;
  /** What the request needed (tokens); null when the provider did not say. */
  requested: number | null;
  /** The provider's own words. */
  message: string;
}

/** Words each provider uses; OpenCode itself names the ones it recognizes `ContextOverflowError`. */
const OVERFLOW_WORDS =
  /context_length_exceeded|exceed_context_size|maximum context length|context length|context size|context window|prompt is too long|input is too long|too many tokens/i;

/** [pattern over the error text, which number comes first]. */
const NUMBER_PATTERNS: [RegExp, "limit" | "requested"][] = [
  // OpenAI, vLLM: "maximum context length is 2048 tokens. However, your messages resulted in 6230 tokens" / "you requested 6230 tokens"
  [/maximum context length is (\d+) tokens?[^]*?(?:resulted in|requested|has|contains) (\d+)/i, "limit"],
  // Anthropic: "prompt is too long: 6230 tokens > 2048 maximum"
  [/(\d+) tokens? > (\d+)/i, "requested"],
  // llama.cpp (message form): "request (6230 tokens) exceeds the available context size (2048 tokens)"
  [/\((\d+) tokens?\) exceeds the (?:available )?context (?:size|length) \((\d+) tokens?\)/i, "requested"],
  // Ollama and others: "input length (6230) exceeds the context length (2048)"
  [/(\d+)\)? exceeds (?:the )?(?:model's )?(?:maximum )?context (?:size|length|window)[^\d]*(\d+)/i, "requested"],
];

/**
 * The context overflow an OpenCode `error` event reports, or null when the error is something else.
 * @example
 * readContextOverflow({ name: "APIError", data: { message: "This model's maximum context length is 2048 tokens. However, your messages resulted in 6230 tokens." } })
 * // { limit: 2048, requested: 6230, message: "This model's maximum context length is 2048 tokens. …" }
 */
export function readContextOverflow(error: unknown): ContextOverflow | null {
  if (!isRecord(error)) return null;
  const data = isRecord(error.data) ? error.data : {};
  const message = typeof data.message === "string" ? data.message : "";
  const body = typeof data.responseBody === "string" ? data.responseBody : "";
  const text = `${message}\n${body}`;
  if (error.name !== "ContextOverflowError" && !OVERFLOW_WORDS.test(text)) return null;
  const numbers = readBodyNumbers(body) ?? readTextNumbers(text);
  return { limit: numbers?.limit ?? null, requested: numbers?.requested ?? null, message: message || body };
}

/** llama.cpp puts both numbers in its error body: `n_ctx`, `n_prompt_tokens`. */
function readBodyNumbers(body: string): { limit: number; requested: number } | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const inner = isRecord(json) && isRecord(json.error) ? json.error : json;
  if (!isRecord(inner) || typeof inner.n_ctx !== "number" || typeof inner.n_prompt_tokens !== "number") return null;
  return { limit: inner.n_ctx, requested: inner.n_prompt_tokens };
}

function readTextNumbers(text: string): { limit: number; requested: number } | null {
  for (const [pattern, first] of NUMBER_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const a = Number(match[1]);
    const b = Number(match[2]);
    return first === "limit" ? { limit: a, requested: b } : { limit: b, requested: a };
  }
  return null;
}
