import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { ResultsStore } from "../records/index.ts";
import type { LiveMessage } from "./api-types.ts";
import { handleApi } from "./api.ts";
import { RunCatalog } from "./run-catalog.ts";
import { ViewerData } from "./viewer-data.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

let fixture: ViewerFixture;
let data: ViewerData;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), { evals: 1, models: ["provider/alpha"], repetitions: 2 });
  data = new ViewerData(RunCatalog.open({ run: fixture.runDirectory, resultsRoot: "unused" }));
});
afterAll(() => data.close());

/** Reads server-sent `data:` messages until `count` arrived. */
async function readMessages(reader: ReadableStreamDefaultReader<Uint8Array>, count: number): Promise<LiveMessage[]> {
  const messages: LiveMessage[] = [];
  let buffer = "";
  while (messages.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += new TextDecoder().decode(value);
    const events = buffer.split("\n\n");
    buffer = events.pop()!;
    for (const event of events)
      if (event.startsWith("data: ")) messages.push(JSON.parse(event.slice(6)) as LiveMessage);
  }
  return messages;
}

describe("live updates", () => {
  it("tell an open page when a runner adds or finishes work, and the next answers show it", async () => {
    const controller = new AbortController();
    const response = await handleApi(
      data,
      new Request(`http://127.0.0.1/api/runs/${fixture.runId}/live`, { signal: controller.signal }),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const [first] = await readMessages(reader, 1);
    expect(first).toMatchObject({ live: false });

    // A runner starts: heartbeat, then a running eval run of a new repetition.
    const store = ResultsStore.open(fixture.runDirectory);
    store.beat();
    const running = {
      ...fixture.evalRuns[0]!,
      id: "eval_live-0000",
      slot: { ...fixture.evalRuns[0]!.slot, repetition: 3 },
      state: "running" as const,
      evidence: null,
      metrics: null,
    };
    store.saveEvalRun(running);
    const [second] = await readMessages(reader, 1);
    expect(second!.version).not.toBe(first!.version);
    expect(second!.live).toBe(true);
    expect(
      data.evalRuns(fixture.runId, { offset: 0, limit: 10, state: "running" })!.items.map((row) => row.id),
    ).toEqual(["eval_live-0000"]);

    store.saveEvalRun({
      ...running,
      state: "failed",
      error: "provider unreachable",
      completedAt: new Date().toISOString(),
    });
    const [third] = await readMessages(reader, 1);
    expect(third!.version).not.toBe(second!.version);
    expect((await data.evalRun(fixture.runId, "eval_live-0000"))!.evidenceError).toMatch(
      /No recording was kept \(state failed: provider unreachable\)/,
    );
    store.close();
    controller.abort();
    await reader.cancel().catch(() => {});
  }, 20_000);
});
