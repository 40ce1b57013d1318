// A model whose server does not parse its tool calls (a chat template without tool-call support, a server started
// without it) writes them as plain text: OpenCode sees an answer with no tool call, and the run looks like a model
// that chose not to use tools. The text still has the call's shape, in the formats open models are trained on.

/** Tool-call-shaped text in one assistant message, cut short. */
export interface ToolCallText {
  messageID: string;
  /** The shape recognized, e.g. "<tool_call>". */
  shape: string;
  excerpt: string;
}

const SHAPES: [shape: string, pattern: RegExp][] = [
  // Qwen, Hermes and most templates derived from them.
  ["<tool_call>", /<tool_call>/],
  ["<|tool_call|>", /<\|tool_call\|>|<\|tool_calls_section_begin\|>/],
  // Mistral.
  ["[TOOL_CALLS]", /\[TOOL_CALLS\]/],
  // Llama 3.1's built-in tools.
  ["<|python_tag|>", /<\|python_tag\|>/],
  // Functionary, Llama 3.x custom tools.
  ["<function=…>", /<function=[\w.-]+>/],
  // Gemma and others that fence their calls.
  ["```tool_code", /```(?:tool_code|tool_call)\b/],
  // A bare JSON call: {"name": "bash", "arguments": {…}} (or "parameters").
  ['{"name":…,"arguments":…}', /\{\s*"name"\s*:\s*"[\w.-]+"\s*,\s*"(?:arguments|parameters)"\s*:\s*\{/],
];

const EXCERPT_CHARS = 200;

/**
 * The first tool-call shape in a message's text, or null.
 * @example findToolCallText("msg_1", 'I will run it.\n<tool_call>\n{"name": "bash", …}') // { messageID: "msg_1", shape: "<tool_call>", excerpt: "<tool_call>\n{\"name\": \"bash\", …}" }
 */
export function findToolCallText(messageID: string, text: string): ToolCallText | null {
  for (const [shape, pattern] of SHAPES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const excerpt = text.slice(match.index, match.index + EXCERPT_CHARS);
    return { messageID, shape, excerpt: excerpt.length < text.length - match.index ? `${excerpt}…` : excerpt };
  }
  return null;
}
