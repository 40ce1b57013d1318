// How a panel's judgments of each criterion become one score (judge.combine): the mean of the values the judges
// resolved, the majority value (a tie is unresolved), or the lowest. Every judgment stays on the judge run beside it.
import type { PanelCombineRule } from "../../load/index.ts";
import type { CriterionScore, PanelJudgment } from "../../records/index.ts";

/**
 * @example combinePanelScores([a, b], "min") // { tests_pass: { value: 0, source: "judge.md", reason: "min of 2 judges: …" } }
 */
export function combinePanelScores(
  judgments: readonly Pick<PanelJudgment, "model" | "repeat" | "scores">[],
  rule: PanelCombineRule,
): Record<string, CriterionScore> | null {
  const scored = judgments.filter((judgment) => judgment.scores !== null);
  if (scored.length === 0) return null;
  const criteria = [...new Set(scored.flatMap((judgment) => Object.keys(judgment.scores!)))];
  return Object.fromEntries(
    criteria.map((criterion) => {
      const given = scored.flatMap((judgment) => {
        const score = judgment.scores![criterion];
        return score ? [{ judgment, score }] : [];
      });
      return [criterion, combineCriterion(given, rule, judgments.length)];
    }),
  );
}

function combineCriterion(
  given: { judgment: Pick<PanelJudgment, "model" | "repeat">; score: CriterionScore }[],
  rule: PanelCombineRule,
  judges: number,
): CriterionScore {
  const value = combineValues(
    given.map(({ score }) => score.value),
    rule,
  );
  const each = given.map(({ judgment, score }) => `${judgeLabel(judgment)} ${score.value ?? "unresolved"}`).join(", ");
  const ceilings = given.flatMap(({ score }) => (score.ceiling ? [score.ceiling] : []));
  return {
    value,
    source: given[0]!.score.source,
    reason: `${rule} of ${judges} judgments (${each})`,
    // The same citation from several judges is one citation.
    evidence: [
      ...new Map(
        given.flatMap(({ score }) => score.evidence ?? []).map((cited) => [JSON.stringify(cited), cited]),
      ).values(),
    ],
    // Every judgment was capped at the same scorer value; what they judged before it combines like their scores.
    ...(ceilings.length > 0
      ? {
          ceiling: {
            ...ceilings[0]!,
            judged: combineValues(
              ceilings.map((ceiling) => ceiling.judged),
              rule,
            ),
          },
        }
      : {}),
  };
}

/** Unresolved judgments take no part; none resolved is unresolved. */
export function combineValues(values: readonly (number | null)[], rule: PanelCombineRule): number | null {
  const resolved = values.filter((value): value is number => value !== null);
  if (resolved.length === 0) return null;
  if (rule === "min") return Math.min(...resolved);
  if (rule === "mean") return resolved.reduce((sum, value) => sum + value, 0) / resolved.length;
  const counts = [...Map.groupBy(resolved, (value) => value)].map(([value, votes]) => [value, votes.length] as const);
  const most = Math.max(...counts.map(([, votes]) => votes));
  const leaders = counts.filter(([, votes]) => votes === most);
  return leaders.length === 1 ? leaders[0]![0] : null;
}

/** `openai/gpt-5`, or `openai/gpt-5 (repeat 2)` for a repeated grading. */
export function judgeLabel(judgment: Pick<PanelJudgment, "model" | "repeat">): string {
  return judgment.repeat === 0 ? judgment.model : `${judgment.model} (repeat ${judgment.repeat})`;
}
