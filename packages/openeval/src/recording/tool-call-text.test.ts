import { describe, expect, it } from "vitest";
import { findToolCallText } from "./tool-call-text.ts";

describe("findToolCallText", () => {
  it.each([
    [
      "Qwen/Hermes",
      'Let me check.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>',
      "<tool_call>",
    ],
    ["Mistral", '[TOOL_CALLS][{"name": "bash", "arguments": {"command": "ls"}}]', "[TOOL_CALLS]"],
    ["Llama 3.1 built-in", '<|python_tag|>{"name": "bash", "parameters": {"command": "ls"}}', "<|python_tag|>"],
    ["Functionary", '<function=bash>{"command": "ls"}</function>', "<function=…>"],
    ["a fenced call", '```tool_code\nbash(command="ls")\n```', "```tool_code"],
    ["a bare JSON call", 'Sure: {"name": "read", "arguments": {"filePath": "a.txt"}}', '{"name":…,"arguments":…}'],
    [
      "a bare JSON call with parameters",
      '{ "name":"bash","parameters":{ "command": "ls" } }',
      '{"name":…,"arguments":…}',
    ],
  ])("recognizes %s", (_name, text, shape) => {
    expect(findToolCallText("msg_1", text)).toMatchObject({ messageID: "msg_1", shape });
  });

  it("cuts the excerpt short at the call", () => {
    const found = findToolCallText("msg_1", `Before. <tool_call>${"x".repeat(500)}`);
    expect(found?.excerpt).toBe(`<tool_call>${"x".repeat(189)}…`);
    expect(findToolCallText("msg_1", "<tool_call>{}")?.excerpt).toBe("<tool_call>{}");
  });

  it("leaves ordinary answers alone, JSON and code included", () => {
    for (const text of [
      "Done: notes/hello.txt is written.",
      'The config is {"name": "demo", "version": "1.0.0"}.',
      "```bash\nls -la\n```",
      "Call the function `bash` with a command.",
    ]) {
      expect(findToolCallText("msg_1", text)).toBeNull();
    }
  });
});
