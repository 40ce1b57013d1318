// The judge's tools over a real candidate recording with a native OpenCode archive: the transcript, tool calls and
// events are shown with the ids a citation needs, and citations of messages, parts, events and tools are checked.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlFile } from "../../../../control-model/src/index.ts";
import { evidenceBody, startClient, type McpClient } from "./fixtures/mcp-client.ts";
import { recordNativeRun } from "./fixtures/native-recording.ts";
import type { JudgeJob } from "./schema.ts";

const FINAL = "All done: notes.txt holds the greeting.";
const candidate: ControlFile = {
  turns: [
    { text: "Checking the shell first.", tools: [{ name: "bash", input: { command: "echo shell-says-hi" } }] },
    { tools: [{ name: "write", input: { filePath: "notes.txt", content: "hello notes\n" } }] },
    { text: FINAL },
  ],
};

let root: string;
let server: McpClient;
let job: JudgeJob;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "openeval-native-evidence-"));
  const evidence = await recordNativeRun(root, candidate, "Write notes.txt with a greeting.");
  job = {
    evidence,
    run: null,
    criteria: ["done"],
    phase: "final",
    submissionFile: join(root, "submission.json"),
    continueFile: join(root, "continue.json"),
    logFile: join(root, "log.jsonl"),
  };
  await Bun.write(join(root, "job.json"), JSON.stringify(job));
  server = startClient(join(root, "job.json"));
  await server.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "test", version: "0" },
  });
}, 150_000); // one real OpenCode run: seconds when idle, much more on a busy 2-core machine

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe("judge tools over a native recording", () => {
  it("shows sessions, the transcript with message and part ids, tool calls and events", async () => {
    const summary = evidenceBody((await server.call("evidence", { action: "summary" })).text);
    const root = /^ {2}(ses_\S+) \(root\)/m.exec(summary)?.[1];
    expect(root).toBeDefined();
    expect(summary).toContain("A recorded OpenCode 1.18.33 session");
    expect(summary).toContain("Tool calls: 2 (0 failed, 0 unfinished)");
    expect(summary).toContain("notes.txt (added, +1 -0)");

    const messages = evidenceBody((await server.call("evidence", { action: "messages", sessionID: root })).text);
    expect(messages).toMatch(/^=== session ses_/);
    expect(messages).toMatch(/--- message msg_\S+ \(user, agent build\) ---/);
    expect(messages).toMatch(
      /\[part prt_\S+ tool\] bash completed \(call \S+\)\ninput: \{"command":"echo shell-says-hi"/,
    );
    expect(messages).toContain(FINAL);

    expect(evidenceBody((await server.call("evidence", { action: "tools" })).text)).toMatch(
      /--- tool \S+: write \(succeeded, session ses_/,
    );
    expect(evidenceBody((await server.call("evidence", { action: "events", sessionID: root })).text)).toMatch(
      new RegExp(`^${root}#\\d+ session\\.created`, "m"),
    );
    expect((await server.call("evidence", { action: "messages", sessionID: "ses_nope" })).text).toContain(
      'no session "ses_nope" in the recording',
    );
  });

  it("accepts citations of a message, a part, an event and a tool call found in the recording, with quotes", async () => {
    const messages = evidenceBody((await server.call("evidence", { action: "messages" })).text);
    const finalPart = new RegExp(`\\[part (prt_\\S+) text\\]\\n${FINAL}`).exec(messages)![1]!;
    const assistant = [...messages.matchAll(/--- message (msg_\S+) \(assistant/g)].at(-1)![1]!;
    const events = evidenceBody((await server.call("evidence", { action: "events" })).text);
    const event = /^(ses_\S+#\d+) session\.created/m.exec(events)![1]!;
    const bash = /--- tool (\S+): bash/.exec(
      evidenceBody((await server.call("evidence", { action: "tools" })).text),
    )![1]!;

    const wrong = await server.call("submit_judgment", {
      scores: {
        done: {
          value: true,
          reason: "It wrote the file.",
          evidence: [
            { kind: "message", id: finalPart, quote: "Nothing was written." },
            { kind: "event", id: `${event}9999` },
          ],
        },
      },
    });
    expect(wrong.text).toContain(`quote "Nothing was written." was not found in the cited message`);
    expect(wrong.text).toContain(`event "${event}9999" is not in the recording`);

    const right = await server.call("submit_judgment", {
      scores: {
        done: {
          value: true,
          reason: "It wrote the file and said so.",
          evidence: [
            { kind: "message", id: finalPart, quote: FINAL },
            { kind: "message", id: assistant, quote: FINAL },
            { kind: "event", id: event },
            { kind: "tool", id: bash, quote: "shell-says-hi" },
            { kind: "file", path: "notes.txt", quote: "+hello notes" },
          ],
        },
      },
    });
    expect(right.isError, right.text).toBeFalsy();
  });
});
