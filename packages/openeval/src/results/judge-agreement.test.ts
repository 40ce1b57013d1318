// Per-criterion agreement over a run's panels: which recordings count, and when a criterion is unreliable.
import { describe, expect, it } from "vitest";
import { judgeAgreement, type JudgedRecording } from "./judge-agreement.ts";

const settings = { minAgreement: 0.67, minUnits: 2, strict: false };
const judged = (
  evalId: string,
  a: Record<string, number | null>,
  b: Record<string, number | null>,
): JudgedRecording => {
  const scores = (values: Record<string, number | null>) =>
    Object.fromEntries(Object.entries(values).map(([id, value]) => [id, { value, source: "judge.md" as const }]));
  return {
    evalId,
    judgments: [
      { model: "a/judge", state: "completed", scores: scores(a) },
      { model: "b/judge", state: "completed", scores: scores(b) },
    ],
  };
};

describe("judgeAgreement", () => {
  it("flags the criterion two judges disagree on, with its α, units and judges, and clears the one they agree on", () => {
    const agreement = judgeAgreement(
      [
        judged("e", { tests: 1, style: 1 }, { tests: 1, style: 0 }),
        judged("e", { tests: 0, style: 0 }, { tests: 0, style: 1 }),
        judged("e", { tests: 1, style: 1 }, { tests: 1, style: 0 }),
      ],
      settings,
    );
    expect(agreement.map((entry) => [entry.criterionId, entry.units, entry.level, entry.unreliable])).toEqual([
      ["style", 3, "nominal", true],
      ["tests", 3, "nominal", false],
    ]);
    expect(agreement[0]!.alpha).toBeLessThan(0);
    expect(agreement[0]!.judges).toEqual(["a/judge", "b/judge"]);
    expect(agreement[1]!.alpha).toBe(1);
  });

  it("needs judge.minAgreementUnits recordings before it calls a criterion unreliable", () => {
    const [style] = judgeAgreement([judged("e", { style: 1 }, { style: 0 })], settings);
    expect(style).toMatchObject({ units: 1, unreliable: false });
    expect(style!.alpha).not.toBeNull();
  });

  it("counts only completed judgments, resolved values, and recordings judged at least twice", () => {
    const failed: JudgedRecording = {
      evalId: "e",
      judgments: [
        { model: "a/judge", state: "completed", scores: { style: { value: 1, source: "judge.md" } } },
        { model: "b/judge", state: "failed", scores: null },
      ],
    };
    expect(judgeAgreement([failed], settings)).toEqual([]);
    const [style] = judgeAgreement(
      [judged("e", { style: 1 }, { style: null }), judged("e", { style: 1 }, { style: 1 })],
      settings,
    );
    expect(style).toMatchObject({ units: 1, values: 2 });
  });
});
