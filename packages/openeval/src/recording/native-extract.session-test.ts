// extractNative over the database of a real OpenCode session, driven by a scripted control on 127.0.0.1.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runControl } from "./fixtures/opencode-run.ts";
import { extractNative } from "./native-extract.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "native-extract-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("a real OpenCode run", () => {
  const FINAL = "Both steps are done.";
  const COST = { input: 3, output: 15 };

  it("extracts the answer, both tool calls, the declared usage and its price", async () => {
    const root = join(scratch, "run");
    const run = await runControl({
      root,
      prompt: "Say hi in the shell, then write a.txt.",
      cost: COST,
      control: {
        turns: [
          {
            text: "Saying hi.",
            tools: [{ name: "bash", input: { command: "echo hi", description: "Say hi" } }],
            usage: { input: 1_000, output: 20 },
          },
          {
            tools: [{ name: "write", input: { filePath: "a.txt", content: "A\n" } }],
            usage: { input: 1_100, output: 30 },
          },
          { text: FINAL, usage: { input: 1_200, output: 40 } },
        ],
      },
    });
    expect(run.exitCode, run.stderr.slice(-3000)).toBe(0);
    expect(await readFile(join(run.workspace, "a.txt"), "utf8")).toBe("A\n");

    const extracted = extractNative(run.databasePath);
    expect(extracted.sessions).toEqual([{ id: extracted.rootSessionID, parentID: null }]);
    expect(extracted.response).toBe(FINAL);
    expect(extracted.tools).toMatchObject([
      {
        name: "bash",
        status: "completed",
        input: { command: "echo hi" },
        output: "hi\n",
        error: null,
        metadata: { exit: 0 },
      },
      {
        name: "write",
        status: "completed",
        input: { filePath: "a.txt", content: "A\n" },
        output: "Wrote file successfully.",
        error: null,
      },
    ]);
    for (const tool of extracted.tools) expect(tool.durationMs).toBe(tool.completedAt! - tool.startedAt!);

    const { metrics } = extracted;
    expect(metrics.tokens).toEqual({ input: 3_300, output: 90, reasoning: 0, cacheRead: 0, cacheWrite: 0 });
    expect(metrics.cost.usd).toBeCloseTo((3_300 * COST.input + 90 * COST.output) / 1e6, 12);
    expect(metrics.requests).toMatchObject({ started: 3, succeeded: 3, failed: 0, retries: null });
    expect(metrics.tools).toEqual({ calls: 2, succeeded: 2, failed: 0, unfinished: 0, errorRate: 0 });
    expect(metrics.compactions).toBe(0);
    expect(metrics.timing.modelActiveMs).toBeGreaterThan(0);
    expect(metrics.timing.outputTokensPerSecond).toBeCloseTo(90 / (metrics.timing.modelActiveMs! / 1000), 9);

    // The event table holds every tool-state transition of the run, in seq order per session.
    const bashStates = extracted.events
      .filter((event) => event.type === "message.part.updated.1")
      .map((event) => (event.data as { part: { tool?: string; state?: { status: string } } }).part)
      .filter((part) => part.tool === "bash")
      .map((part) => part.state?.status);
    expect(bashStates[0]).toBe("pending");
    expect(bashStates.at(-1)).toBe("completed");
    expect(extracted.events.map((event) => event.sequence)).toEqual(extracted.events.map((_, index) => index));
  }, 90_000);
});
