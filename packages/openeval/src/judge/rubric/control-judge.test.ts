// The scripted judge's controls and how `control/judge` picks one for a candidate.
import { describe, expect, it } from "vitest";
import { ControlFileSchema, type ControlFile } from "@openeval/control-model";
import { judgeControls, resolveJudgeModel } from "./control-judge.ts";

const controls: Record<string, ControlFile> = {
  positive: { turns: [{ text: "ok" }], verdict: { correct: { value: true, reason: "Right." }, partial: { value: 0.25, reason: "Some." } } },
  plain: { turns: [{ text: "ok" }] },
};

describe("judgeControls", () => {
  it("makes judge.<name> for each control with a verdict: submit it citing the response, then a final text", () => {
    const judges = judgeControls(controls);
    expect(Object.keys(judges)).toEqual(["judge.positive"]);
    const judge = ControlFileSchema.parse(judges["judge.positive"]);
    expect(judge.turns[0]!.tools).toEqual([
      {
        name: "judge_submit_judgment",
        input: {
          scores: {
            correct: { value: true, reason: "Right.", evidence: [{ kind: "response" }] },
            partial: { value: 0.25, reason: "Some.", evidence: [{ kind: "response" }] },
          },
        },
      },
    ]);
    expect(judge.turns[1]!.text).toBeTruthy();
    expect(judge.turns[1]!.tools).toBeUndefined();
  });
});

describe("resolveJudgeModel", () => {
  it("maps control/judge to the candidate control's scripted judge, and leaves other judge models alone", () => {
    expect(resolveJudgeModel("control/judge", "control/positive", controls)).toEqual({ model: "control/judge.positive" });
    expect(resolveJudgeModel("anthropic/claude-sonnet-4-5", "control/plain", controls)).toEqual({ model: "anthropic/claude-sonnet-4-5" });
  });

  it("says why a scripted judge cannot grade a real model, an unknown control, or one without a verdict", () => {
    expect(resolveJudgeModel("control/judge", "openai/gpt-5", controls)).toMatchObject({ error: expect.stringContaining("grades only control candidates") });
    expect(resolveJudgeModel("control/judge", "control/ghost", controls)).toMatchObject({ error: expect.stringContaining('"ghost" has no control file') });
    expect(resolveJudgeModel("control/judge", "control/plain", controls)).toMatchObject({ error: expect.stringContaining('"plain" declares no verdict') });
  });
});
