// The reference fix as the rubric judge's facts and ceiling: when an eval has REFERENCE_FIX.md, the harness scores the
// candidate's final diff against it (judge/scorers/reference-fix.ts) before the judge starts. The judge is told the
// result in the harness's own words, and a criterion declared `Ceiling: reference_fix` is capped at its value, so the
// judge cannot score correctness higher than the scorer supports.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { REFERENCE_FIX_FILE, type EvalDefinition } from "../../load/index.ts";
import type { CriterionScore, EvalRun } from "../../records/index.ts";
import { createJudgeContext, openSealedEvidence, type EvidenceRef } from "../../recording/index.ts";
import { referenceFix, type ReferenceFixScore } from "../scorers/index.ts";

/** The scorer's result for one recording; null when the eval has no reference fix or no rubric to tell. */
export async function scoreReferenceFix(
  evaluation: Pick<EvalDefinition, "directory" | "rubric" | "judgeFiles">,
  evidence: EvidenceRef,
  run: EvalRun | null,
): Promise<ReferenceFixScore | null> {
  if (!evaluation.rubric || !evaluation.judgeFiles.some((file) => file.path === REFERENCE_FIX_FILE)) return null;
  const referenceText = await readFile(join(evaluation.directory, REFERENCE_FIX_FILE), "utf8");
  await using context = await createJudgeContext(await openSealedEvidence(evidence.directory, evidence.hash), run);
  return referenceFix(context, { referenceText });
}

/**
 * What the judge is told, after its task: the scorer's numbers and files, as facts it did not have to read from the
 * candidate, and which criteria they cap.
 * @example referenceFactsText(score, ["fixed"]) // "Facts from openeval (the harness, not the candidate): …"
 */
export function referenceFactsText(score: ReferenceFixScore, capped: readonly string[]): string {
  const files = (paths: readonly string[]) => (paths.length === 0 ? "none" : paths.join(", "));
  return [
    "Facts from openeval (computed by the harness before you started; not the candidate's words, and authoritative):",
    `- The reference-fix scorer compared the candidate's final changes with the eval's reference fix (${REFERENCE_FIX_FILE}): value ${score.value.toFixed(3)} (structural ${score.structural.toFixed(3)}: how far the changed files match; textual ${score.textual.toFixed(3)}: how alike the added lines are).`,
    `- Files both changed: ${files(score.matched_files)}. Files the reference changes and the candidate does not: ${files(score.missing_files)}. Files only the candidate changed: ${files(score.extra_files)}.`,
    ...(capped.length > 0
      ? [
          `- ${capped.join(", ")} ${capped.length === 1 ? "is" : "are"} capped at ${score.value.toFixed(3)}: whatever you score ${capped.length === 1 ? "it" : "them"}, the recorded score will not exceed that value. Still judge on the evidence.`,
        ]
      : []),
  ].join("\n");
}

/** The criteria of a rubric that the reference fix caps. */
export function cappedCriteria(evaluation: Pick<EvalDefinition, "rubric">): string[] {
  return (evaluation.rubric?.criteria ?? []).flatMap((criterion) =>
    criterion.ceiling === "reference_fix" ? [criterion.id] : [],
  );
}

/**
 * Caps each capped criterion's score at the scorer's value, recording the cap and the judge's own score beside it.
 * @example applyCeilings({ fixed: { value: 1, source: "judge.md" } }, ["fixed"], 0.4).fixed
 * // { value: 0.4, source: "judge.md", ceiling: { kind: "reference_fix", value: 0.4, judged: 1 } }
 */
export function applyCeilings(
  scores: Record<string, CriterionScore>,
  capped: readonly string[],
  ceiling: number,
): Record<string, CriterionScore> {
  return Object.fromEntries(
    Object.entries(scores).map(([id, score]) => {
      if (!capped.includes(id)) return [id, score];
      const value = score.value === null ? null : Math.min(score.value, ceiling);
      return [
        id,
        { ...score, value, ceiling: { kind: "reference_fix" as const, value: ceiling, judged: score.value } },
      ];
    }),
  );
}
