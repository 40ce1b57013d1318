import { describe, expect, it } from "vitest";
import { creditsOf, RecordedWorkIndex } from "./active-work.ts";
import type { EvalRun, JudgeRun } from "./schema.ts";

const slot = { evalId: "answer", model: "p/m", variant: "current", repetition: 1 };
const evalRun = (id: string, candidateFingerprint: string, state: EvalRun["state"] = "completed") =>
  ({ id, slot, state, infrastructureError: false, input: { candidateFingerprint } }) as unknown as EvalRun;
const judgeRun = (
  id: string,
  evalRunId: string,
  judgeFingerprint: string,
  state: JudgeRun["state"] = "completed",
  value = 1,
) => ({ id, evalRunId, judgeFingerprint, state, scores: { correct: { value } } }) as unknown as JudgeRun;

describe("the work that counts for a slot", () => {
  const index = new RecordedWorkIndex(
    [evalRun("e1", "c1"), evalRun("e2", "c2")],
    [judgeRun("j1", "e1", "g1"), judgeRun("j2", "e2", "g1", "completed", 0), judgeRun("j3", "e2", "g2", "running")],
  );

  it("without fingerprints (the viewer): the latest eval run and its latest finished judgment", () => {
    const work = index.activeWork(slot);
    expect([work.status, work.evalRun?.id, work.judgeRun?.id]).toEqual(["scored", "e2", "j2"]);
    expect(creditsOf(work.judgeRun)).toEqual({ correct: 0 });
  });

  it("with fingerprints (the plan): only work made with those inputs, saying why there is none", () => {
    const old = index.activeWork(slot, { candidateFingerprint: "c1", judgeFingerprint: "g1" });
    expect([old.status, old.evalRun?.id, old.judgeRun?.id]).toEqual(["scored", "e1", "j1"]);
    expect(index.activeWork(slot, { candidateFingerprint: "c2", judgeFingerprint: "g3" })).toMatchObject({
      status: "judgeInputsChanged",
      judgeRun: null,
    });
    // A judgment with these inputs was started and never finished: it was stopped, the inputs did not change.
    expect(index.activeWork(slot, { candidateFingerprint: "c2", judgeFingerprint: "g2" })).toMatchObject({
      status: "judgeInterrupted",
      judgeRun: null,
    });
    expect(index.activeWork(slot, { candidateFingerprint: "c3", judgeFingerprint: "g1" })).toMatchObject({
      status: "inputsChanged",
      evalRun: null,
    });
    expect(index.activeWork({ ...slot, repetition: 2 }).status).toBe("missing");
    expect(index.latest(slot)?.id).toBe("e2");
  });

  it("an unfinished eval run or a failed judgment counts, and is not scored", () => {
    const running = new RecordedWorkIndex([evalRun("e1", "c1", "interrupted")], []);
    expect(running.activeWork(slot)).toMatchObject({ status: "interrupted", judgeRun: null });
    const judgeFailed = new RecordedWorkIndex([evalRun("e1", "c1")], [judgeRun("j1", "e1", "g1", "timed_out")]);
    const work = judgeFailed.activeWork(slot);
    expect([work.status, work.judgeRun?.id, creditsOf(work.judgeRun)]).toEqual(["judgeFailed", "j1", null]);
  });
});
