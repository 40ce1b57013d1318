// OpenEval compatibility: a judge.ts written from OpenEval 0.5's documented JudgeContext runs unchanged over a real
// recording and scores as OpenEval's rules say; what OpenCode 1.x cannot give throws, saying so.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlFile } from "../../../control-model/src/index.ts";
import { createJudgeContext, openEvidence, recordEvidence, type EvidenceRef } from "../recording/index.ts";
import { HARNESS_VERSION } from "../util/versions.ts";
import { judgeEvidence } from "./judge-evidence.ts";
import { recordNativeRun } from "./rubric/fixtures/native-recording.ts";

const EVAL = join(import.meta.dirname, "..", "..", "..", "..", "test", "fixtures", "openeval-0.5", "evals", "notes");
const positive = (await Bun.file(join(EVAL, "controls", "positive.json")).json()) as ControlFile;

let root: string;
let evidence: EvidenceRef;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "openeval-contract-"));
  evidence = await recordNativeRun(root, positive, await Bun.file(join(EVAL, "prompt.md")).text());
}, 150_000); // one real OpenCode run: seconds when idle, much more on a busy 2-core machine

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("an OpenEval 0.5 judge.ts over a native recording", () => {
  it("scores exactly as OpenEval's rules say: booleans 1/0, a number as credit, the equal-weight mean", async () => {
    const result = await judgeEvidence({ evidence, code: join(EVAL, "judge.ts"), directory: join(root, "audit") });
    expect(result.error).toBeUndefined();
    expect(Object.fromEntries(Object.entries(result.scores).map(([id, score]) => [id, score.value]))).toEqual({
      wrote_notes: 1,
      shell_output: 1,
      tried_missing: 1,
      reliability: 1 - 1 / 3,
      recorded_events: 1,
    });
    expect(result.value).toBe((1 + 1 + 1 + (1 - 1 / 3) + 1) / 5);
    expect(result.output).toMatchObject({
      statuses: ["bash:succeeded", "read:failed", "write:succeeded"],
      coverage: "recorded-session",
      sessions: 1,
      compactionsStarted: 0,
      readerVersion: HARNESS_VERSION,
    });
  });

  it("gives OpenEval's shapes: synchronous events and tools, diff(path) as { initial, final }, metrics members", async () => {
    await using context = await createJudgeContext(await openEvidence(evidence.directory, evidence.hash), null);
    const events = context.recording.events({ type: "session." });
    expect(Array.isArray(events)).toBe(true);
    expect(events[0]).toMatchObject({
      sequence: expect.any(Number),
      sessionID: context.recording.sessionID,
      event: { type: expect.stringMatching(/^session\./) },
    });
    const [bash, read, write] = context.recording.tools();
    expect(bash).toMatchObject({
      name: "bash",
      status: "succeeded",
      executed: true,
      assistantMessageId: expect.stringMatching(/^msg_/),
      content: expect.stringContaining("shell-says-hi"),
    });
    expect(read).toMatchObject({ name: "read", status: "failed", error: expect.any(String) });
    expect(write?.status).toBe("succeeded");
    expect(await context.workspace.diff("notes.txt")).toEqual({ initial: null, final: "hello notes\n" });
    expect((await context.workspace.patches()).map((file) => [file.path, file.status])).toEqual([
      ["notes.txt", "added"],
    ]);
    const { scope, complete, sessions, compactions, tools } = context.metrics;
    expect({ scope, complete, sessions, started: compactions?.started, evidence: context.metrics.evidence }).toEqual({
      scope: "candidate",
      complete: true,
      sessions: 1,
      started: 0,
      evidence,
    });
    expect(tools).toMatchObject({ calls: 3, byName: { read: { calls: 1, failed: 1 }, bash: { succeeded: 1 } } });
    expect(context.recording.evidence).toEqual(evidence);
    expect(context.native.readerVersion).toBe(HARNESS_VERSION);
  });

  it("throws, naming the member, where OpenCode 1.x has no such data; whole objects still serialize", async () => {
    await using context = await createJudgeContext(await openEvidence(evidence.directory, evidence.hash), null);
    expect(() => context.metrics.compactions!.failed).toThrow(
      "metrics.compactions.failed: OpenCode 1.x records that a compaction started, not how it ended",
    );
    expect(() => context.metrics.compactions!.completed).toThrow(/metrics\.compactions\.completed/);
    expect(() => (context.metrics.cost as { reportedUSD?: number }).reportedUSD).toThrow(
      /metrics\.cost\.reportedUSD: this recorder keeps one cost/,
    );
    expect(JSON.parse(JSON.stringify(context.metrics)).compactions).toEqual({ started: 0 });
    await expect(context.workspace.diff(undefined as unknown as string)).rejects.toThrow(
      "workspace.diff(path) takes one workspace path; workspace.patches() gives every changed file",
    );
  });
});

describe("constructed evidence", () => {
  it("says a tool call's assistant message is unknown, and is incomplete by OpenEval's meaning", async () => {
    const ref = await recordEvidence({
      directory: join(root, "constructed"),
      prompt: "p",
      response: "r",
      tools: [{ name: "bash", input: { command: "ls" }, output: "a.txt" }],
    });
    await using context = await createJudgeContext(await openEvidence(ref.directory, ref.hash), null);
    const [tool] = context.recording.tools();
    expect(tool).toMatchObject({ status: "succeeded", content: "a.txt" });
    expect(() => tool!.assistantMessageId).toThrow(
      /has no assistant message ids on its tool calls \(constructed evidence, or recorded before they were kept\)/,
    );
    expect(context.metrics).toMatchObject({ complete: false, sessions: 0, compactions: null });
    expect(context.recording).toMatchObject({ sessionID: null, coverage: "recorded-session" });
    expect(context.recording.events()).toEqual([]);
  });
});
