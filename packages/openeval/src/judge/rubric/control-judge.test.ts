// The scripted judge's controls and how `control/judge` picks one for a candidate.
import { describe, expect, it } from "vitest";
import { ControlFileSchema, type ControlFile } from "@openeval/control-model";
import { judgeControls, resolveJudgeModel } from "./control-judge.ts";

const controls: Record<string, ControlFile> = {
  positive: {
    turns: [{ text: "ok" }],
    verdict: { correct: { value: true, reason: "Right." }, partial: { value: 0.25, reason: "Some." } },
  },
  patient: { turns: [{ text: "ok" }], verdict: { correct: { value: true, reason: "Right." } }, earlyCheck: "continue" },
  unsure: {
    turns: [{ text: "ok" }],
    verdict: { correct: { value: true, reason: "Right." }, tested: { value: null, reason: "No test run yet." } },
  },
  plain: { turns: [{ text: "ok" }] },
};

describe("judgeControls", () => {
  it("makes judge.<name> for each control with a verdict: submit it citing the response, then a final text", () => {
    const judges = judgeControls(controls);
    expect(Object.keys(judges)).toEqual([
      "judge.positive",
      "judge-early.positive",
      "judge.patient",
      "judge-early.patient",
      "judge.unsure",
      "judge-early.unsure",
    ]);
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

  it("makes judge-early.<name> for earlyStop checks: submit a verdict that decides everything, else continue naming the open criterion", () => {
    const judges = judgeControls(controls);
    expect(judges["judge-early.positive"]!.turns[0]).toEqual(judges["judge.positive"]!.turns[0]);
    expect(judges["judge-early.unsure"]!.turns[0]!.tools).toEqual([
      { name: "judge_continue_judging", input: { reason: "tested: No test run yet." } },
    ]);
    expect(judges["judge.unsure"]!.turns[0]!.tools![0]!.name).toBe("judge_submit_judgment");
    // A control can ask its early checks to wait although its verdict decides everything.
    expect(judges["judge-early.patient"]!.turns[0]!.tools![0]).toMatchObject({
      name: "judge_continue_judging",
      input: { reason: expect.stringContaining("not decided until it finishes") },
    });
  });
});

describe("resolveJudgeModel", () => {
  it("maps control/judge to the candidate control's scripted judge, and leaves other judge models alone", () => {
    expect(resolveJudgeModel("control/judge", "control/positive", controls)).toEqual({
      model: "control/judge.positive",
    });
    expect(resolveJudgeModel("control/judge", "control/positive", controls, "early")).toEqual({
      model: "control/judge-early.positive",
    });
    expect(resolveJudgeModel("anthropic/claude-sonnet-4-5", "control/plain", controls)).toEqual({
      model: "anthropic/claude-sonnet-4-5",
    });
  });

  it("says why a scripted judge cannot grade a real model, an unknown control, or one without a verdict", () => {
    expect(resolveJudgeModel("control/judge", "openai/gpt-5", controls)).toMatchObject({
      error: expect.stringContaining("grades only control candidates"),
    });
    expect(resolveJudgeModel("control/judge", "control/ghost", controls)).toMatchObject({
      error: expect.stringContaining('"ghost" has no control file'),
    });
    expect(resolveJudgeModel("control/judge", "control/plain", controls)).toMatchObject({
      error: expect.stringContaining('"plain" declares no verdict'),
    });
  });
});

describe("scripted judge variants (control/judge#<name>)", () => {
  const disputed: Record<string, ControlFile> = {
    positive: {
      turns: [{ text: "ok" }],
      verdict: { correct: { value: true, reason: "Right." }, style: { value: true, reason: "Tidy." } },
      judges: { harsh: { style: { value: false, reason: "Untidy." } } },
    },
  };

  it("plays the control's judges.<name> verdict for the criteria it names, and the verdict for the rest", () => {
    const judges = judgeControls(disputed);
    expect(Object.keys(judges)).toEqual(["judge.positive", "judge-early.positive", "judge.positive.harsh"]);
    expect(judges["judge.positive.harsh"]!.turns[0]!.tools![0]!.input).toEqual({
      scores: {
        correct: { value: true, reason: "Right.", evidence: [{ kind: "response" }] },
        style: { value: false, reason: "Untidy.", evidence: [{ kind: "response" }] },
      },
    });
  });

  it("resolves a declared variant to its own judge, and an undeclared one (or an early check) to control/judge's", () => {
    expect(resolveJudgeModel("control/judge#harsh", "control/positive", disputed)).toEqual({
      model: "control/judge.positive.harsh",
    });
    expect(resolveJudgeModel("control/judge#lenient", "control/positive", disputed)).toEqual({
      model: "control/judge.positive",
    });
    expect(resolveJudgeModel("control/judge#harsh", "control/positive", disputed, "early")).toEqual({
      model: "control/judge-early.positive",
    });
  });

  it("refuses a variant name that could not be a control name, naming the field", () => {
    const parsed = ControlFileSchema.safeParse({
      turns: [{ text: "ok" }],
      judges: { "no good": { correct: { value: true, reason: "x" } } },
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error!.issues)).toContain("must be letters, digits");
  });
});
