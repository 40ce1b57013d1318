import { describe, expect, it } from "vitest";
import { minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark } from "../load/index.ts";
import { toSlotKey, type EvalRun, type JudgeRun } from "../records/index.ts";
import { resolveExplicitRequests } from "./check-requests.ts";
import { planSlots, type PlannedSlot } from "./plan-benchmark.ts";

const idOf = (hex: string) => `eval_${hex}-0000-4000-8000-000000000000`;
/** Current's repetitions 1 and 2, then concise's: the variant arm was recorded last, as a run records it. */
const IDS = {
  current1: idOf("c0000001"),
  current2: idOf("c0000002"),
  concise1: idOf("c0000003"),
  concise2: idOf("c0000004"),
};

async function variantBenchmark() {
  const settings = `export default { models: ["p/a"], repetitions: 2, variants: { concise: { instructions: "Be brief." } } };\n`;
  return loadBenchmark(await writeTree(minimalBenchmark({ "benchmark.ts": settings })));
}

/** Repetition 1 of each arm failed on the harness (retry redoes it); repetition 2 completed and was judged (rejudge redoes it). */
function recordArms(slots: readonly PlannedSlot[]): { evalRuns: EvalRun[]; judgeRuns: JudgeRun[] } {
  const ids = Object.values(IDS);
  const evalRuns = slots.map(
    (slot, index): EvalRun => ({
      id: ids[index]!,
      runId: "r",
      slot: toSlotKey(slot),
      control: false,
      state: slot.repetition === 1 ? "failed" : "completed",
      infrastructureError: slot.repetition === 1,
      error: slot.repetition === 1 ? "provider down" : null,
      startedAt: "2026-01-01T00:00:00Z",
      completedAt: "2026-01-01T00:00:01Z",
      elapsedMs: 1000,
      input: {
        candidateFingerprint: slot.candidateFingerprint,
        prompt: "p",
        timeoutMs: 1,
        maxCostUSD: null,
        opencodeVersion: "x",
      },
      evidence: slot.repetition === 1 ? null : { directory: "e", hash: "h" },
      metrics: null,
    }),
  );
  const judgeRuns = evalRuns
    .filter((run) => run.state === "completed")
    .map(
      (run): JudgeRun => ({
        id: `judge_${run.id}`,
        runId: "r",
        evalRunId: run.id,
        slot: run.slot,
        kind: "code",
        state: "completed",
        judgeFingerprint: slots[0]!.judgeFingerprint,
        startedAt: "x",
        completedAt: "y",
        elapsedMs: 1,
        scores: {},
        unscored: false,
        error: null,
        directory: "d",
      }),
    );
  return { evalRuns, judgeRuns };
}

const actions = (slots: readonly PlannedSlot[]) =>
  slots.map((slot) => `${slot.variant}#${slot.repetition}:${slot.action}`);

describe("retry and rejudge by id with variants", () => {
  it("act on exactly the named eval run of the current arm or of a variant arm", async () => {
    const benchmark = await variantBenchmark();
    const records = recordArms(planSlots(benchmark, { evalRuns: [], judgeRuns: [] }).slots);
    expect(records.evalRuns.map((run) => `${run.slot.variant}#${run.slot.repetition}`)).toEqual([
      "current#1",
      "current#2",
      "concise#1",
      "concise#2",
    ]);
    const requests = [
      { retry: [IDS.current1] },
      { retry: [IDS.concise1] },
      { rejudge: [IDS.current2] },
      { rejudge: [IDS.concise2] },
    ];
    const planned = requests.map((request) => {
      const resolved = resolveExplicitRequests(() => records.evalRuns, request);
      expect(resolved).toStrictEqual(request);
      return actions(planSlots(benchmark, records, { ...resolved, explicitOnly: true }).slots);
    });
    expect(planned).toEqual([
      ["current#1:candidate", "current#2:reuse", "concise#1:failed", "concise#2:reuse"],
      ["current#1:failed", "current#2:reuse", "concise#1:candidate", "concise#2:reuse"],
      ["current#1:failed", "current#2:judge", "concise#1:failed", "concise#2:reuse"],
      ["current#1:failed", "current#2:reuse", "concise#1:failed", "concise#2:judge"],
    ]);
  });

  it("still refuse an eval run a later execution of its own slot, in its own arm, superseded", async () => {
    const records = recordArms(planSlots(await variantBenchmark(), { evalRuns: [], judgeRuns: [] }).slots);
    const again = { ...records.evalRuns[2]!, id: idOf("d0000003") };
    const evalRuns = [...records.evalRuns, again];
    expect(() => resolveExplicitRequests(() => evalRuns, { retry: [IDS.concise1] })).toThrow(
      `retry ${IDS.concise1}: superseded by a later execution of answer × p/a [concise] #1; the active eval run of that slot is ${again.id}`,
    );
    expect(resolveExplicitRequests(() => evalRuns, { retry: [IDS.current1, again.id] })).toStrictEqual({
      retry: [IDS.current1, again.id],
    });
  });
});

describe("an eval run stopped at a token or step limit", () => {
  it("can be retried (to run again, say under a raised limit) and rejudged (it has a recording)", async () => {
    const records = recordArms(planSlots(await variantBenchmark(), { evalRuns: [], judgeRuns: [] }).slots);
    for (const state of ["token_limited", "step_limited"] as const) {
      const evalRuns = records.evalRuns.map((run) => (run.id === IDS.current2 ? { ...run, state } : run));
      expect(resolveExplicitRequests(() => evalRuns, { retry: [IDS.current2] })).toStrictEqual({
        retry: [IDS.current2],
      });
      expect(resolveExplicitRequests(() => evalRuns, { rejudge: [IDS.current2] })).toStrictEqual({
        rejudge: [IDS.current2],
      });
    }
    // A completed run is not retried: the limits' states are what makes it retryable.
    expect(() => resolveExplicitRequests(() => records.evalRuns, { retry: [IDS.current2] })).toThrow(
      /it ended completed/,
    );
  });
});

describe("eval-run names as the viewer shortens them", () => {
  it("resolve a prefix only one eval run's id starts with to that eval run", async () => {
    const records = recordArms(planSlots(await variantBenchmark(), { evalRuns: [], judgeRuns: [] }).slots);
    expect(
      resolveExplicitRequests(() => records.evalRuns, {
        retry: ["eval_c0000001", "eval_c0000003"],
        rejudge: ["eval_c0000004"],
      }),
    ).toEqual({
      retry: [IDS.current1, IDS.concise1],
      rejudge: [IDS.concise2],
    });
  });

  it("refuse an ambiguous prefix naming the eval runs it matches, and an unknown or empty name, each by name", async () => {
    const records = recordArms(planSlots(await variantBenchmark(), { evalRuns: [], judgeRuns: [] }).slots);
    const refusal = (scope: { retry?: string[]; rejudge?: string[] }) => {
      try {
        resolveExplicitRequests(() => records.evalRuns, scope);
      } catch (error) {
        return (error as Error).message.split("\n");
      }
      throw new Error("not refused");
    };
    expect(refusal({ retry: ["eval_c000000", "eval_ffffffff", ""], rejudge: ["eval_c"] })).toEqual([
      `retry eval_c000000: 4 eval runs start with it (${Object.values(IDS).join(", ")}); give more of the id`,
      "retry eval_ffffffff: no such eval run in this run; `openeval plan` lists the eval runs and what they need",
      "retry : no such eval run in this run; `openeval plan` lists the eval runs and what they need",
      `rejudge eval_c: 4 eval runs start with it (${Object.values(IDS).join(", ")}); give more of the id`,
    ]);
  });

  it("list at most five of the eval runs an ambiguous prefix matches", () => {
    const evalRuns = Array.from({ length: 7 }, (_, index) => ({ id: idOf(`a000000${index}`) }) as EvalRun);
    expect(() => resolveExplicitRequests(() => evalRuns, { retry: ["eval_a"] })).toThrow(
      `retry eval_a: 7 eval runs start with it (${evalRuns
        .slice(0, 5)
        .map((run) => run.id)
        .join(", ")} and 2 more); give more of the id`,
    );
  });

  it("read no eval run when none is named (rejudge of every failed judgment)", () => {
    const read = () => {
      throw new Error("read");
    };
    expect(resolveExplicitRequests(read, { rejudge: "failed" })).toStrictEqual({ rejudge: "failed" });
    expect(resolveExplicitRequests(read, {})).toStrictEqual({});
  });
});
