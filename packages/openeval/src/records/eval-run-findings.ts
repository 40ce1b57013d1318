// The one set of words for what a recording shows beyond how the run ended, shared by the summary and the viewer.
import type { EvalRunFinding } from "./schema.ts";

/**
 * @example describeFinding({ kind: "tool_call_text", count: 2, messageID: "msg_1", shape: "<tool_call>", excerpt: "<tool_call>…" })
 * // "wrote 2 tool calls as text (<tool_call>…) that reached OpenCode as plain answers, so none of them ran: …"
 */
export function describeFinding(finding: EvalRunFinding): string {
  const calls = finding.count === 1 ? "a tool call" : `${finding.count} tool calls`;
  return (
    `wrote ${calls} as text (${finding.shape}, first in message ${finding.messageID}) that reached OpenCode as a plain answer, so it never ran: ` +
    `the server did not parse the model's tool calls. Check that its chat template supports tool calls and that tool-call parsing is on ` +
    `(llama.cpp: llama-server --jinja; vLLM: --enable-auto-tool-choice --tool-call-parser <parser>).`
  );
}
