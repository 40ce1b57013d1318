// What a runBenchmark call leaves behind in the process that made it (nothing left running).
import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedRun } from "../../../../test/helpers/variant-run.ts";
import type { RunnerEvent } from "../summary/index.ts";
import { runBenchmark } from "./run-benchmark.ts";

/** Command lines of this process's living children. */
function children(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(parent) === process.pid && state !== "Z")
        found.push(readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

describe("runBenchmark", () => {
  it("stops the run's warm code-judge workers when it returns: none is left waiting in the caller's process", async () => {
    const { benchmark, store } = await recordedRun("", { recorded: true });
    // The judge changed since the run: every recording is graded again, by the run's frozen code-judge worker.
    await writeFile(
      join(benchmark.directory, "evals", "answer", "judge.ts"),
      "export default () => ({ scores: { correct: true } });\n",
    );
    const events: RunnerEvent[] = [];
    await runBenchmark(benchmark.directory, {
      run: store.directory,
      scope: { isolation: "process" },
      onEvent: (event) => events.push(event),
    });
    expect(events.filter((event) => event.type === "judge.finished").length).toBeGreaterThan(0);
    expect(children().filter((commandLine) => commandLine.includes(store.directory))).toEqual([]);
    store.close();
  });
});
