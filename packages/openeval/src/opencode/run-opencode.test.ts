// The time limit covers the session, not bringing its files back: a launcher's collect() (a container's copy-out)
// runs after the limit is released, so a slow copy never makes an answered run timed_out.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { runOpenCode, type Launcher } from "./run-opencode.ts";

/** A session that has already ended (nothing to stream), whose files take `collectMs` to come back. */
function endedSession(collectMs: number, seen: { killed: boolean }): Launcher {
  const empty = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  return async () => ({
    stdout: empty(),
    stderr: empty(),
    exited: Promise.resolve(0),
    collect: () => Bun.sleep(collectMs),
    kill: async () => void (seen.killed = true),
  });
}

async function run(collectMs: number) {
  const scratch = await makeTempDir("openeval-collect-");
  const seen = { killed: false };
  const outcome = await runOpenCode({
    launch: endedSession(collectMs, seen),
    opencodeBinary: "opencode",
    scratchDir: join(scratch, "opencode"),
    workspace: join(scratch, "workspace"),
    prompt: "p",
    model: "control/none",
    config: {},
    credentials: { env: {}, auth: null },
    timeoutMs: 100,
    eventsFile: join(scratch, "logs", "events.jsonl"),
    stderrFile: join(scratch, "logs", "stderr.log"),
    secrets: [],
  });
  return { state: outcome.state, killed: seen.killed };
}

describe("runOpenCode's time limit", () => {
  it("does not run while the session's files are collected", async () => {
    const quick = await run(0);
    // Collecting for ten times the session's limit: the state is the session's own, and nothing is killed.
    const slow = await run(1_000);
    expect(quick.state).not.toBe("timed_out");
    expect(slow).toEqual({ state: quick.state, killed: false });
  });
});
