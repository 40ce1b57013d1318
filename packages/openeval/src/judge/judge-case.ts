// What judges are told of the case an eval run was for: code judges get it as ctx.case, rubric judges as facts
// from the harness beside their task. The current definition's case is used, so editing a case's expected value
// re-judges its recordings (the judge fingerprint has it) without running its candidates again.
import { caseOf, type EvalDefinition } from "../load/index.ts";
import type { JudgeCase } from "../recording/index.ts";

/** The eval run's case as judges see it; null for an eval without cases. */
export function judgeCaseOf(
  evaluation: Pick<EvalDefinition, "id" | "cases">,
  caseId: string | undefined,
): JudgeCase | null {
  const item = caseOf(evaluation, caseId);
  return item ? { id: item.id, input: item.input, expected: item.expected ?? null, tags: item.tags } : null;
}

/**
 * The case as facts for a rubric judge.
 * @example caseFactsText({ id: "late", input: { days: 45 }, expected: { refund: false }, tags: [] })
 */
export function caseFactsText(item: JudgeCase): string {
  return [
    `Facts from openeval about the case this run was for (from the eval's case file; not the candidate's words):`,
    `- Case: ${item.id}${item.tags.length > 0 ? ` (tags: ${item.tags.join(", ")})` : ""}.`,
    `- Its input (the candidate's prompt was written from it): ${JSON.stringify(item.input)}`,
    item.expected === null
      ? "- It gives no expected value."
      : `- Its expected value (the candidate was not told it, unless the prompt says so): ${JSON.stringify(item.expected)}`,
  ].join("\n");
}
