import { expect, it } from "vitest";
import { describeFinding } from "./eval-run-findings.ts";

it("says the model's tool calls were text the server did not parse, how many, where, and what to check", () => {
  const finding = {
    kind: "tool_call_text",
    count: 2,
    messageID: "msg_7",
    shape: "<tool_call>",
    excerpt: "<tool_call>{}",
  } as const;
  expect(describeFinding(finding)).toBe(
    "wrote 2 tool calls as text (<tool_call>, first in message msg_7) that reached OpenCode as a plain answer, so it never ran: " +
      "the server did not parse the model's tool calls. Check that its chat template supports tool calls and that tool-call parsing is on " +
      "(llama.cpp: llama-server --jinja; vLLM: --enable-auto-tool-choice --tool-call-parser <parser>).",
  );
  expect(describeFinding({ ...finding, count: 1 })).toMatch(/^wrote a tool call as text/);
});
