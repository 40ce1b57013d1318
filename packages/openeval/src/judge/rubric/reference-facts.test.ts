import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../../test/helpers/fixtures.ts";
import { parseRubric } from "../../load/index.ts";
import { recordEvidence } from "../../recording/index.ts";
import { applyCeilings, cappedCriteria, referenceFactsText, scoreReferenceFix } from "./reference-facts.ts";

const REFERENCE = [
  "# Reference fix",
  "",
  "```diff",
  "diff --git a/add.js b/add.js",
  "--- a/add.js",
  "+++ b/add.js",
  "@@ -1,1 +1,1 @@",
  "-export const add = (a, b) => a - b;",
  "+export const add = (a, b) => a + b;",
  "diff --git a/README.md b/README.md",
  "--- a/README.md",
  "+++ b/README.md",
  "@@ -1,1 +1,1 @@",
  "-add subtracts",
  "+add adds",
  "```",
  "",
].join("\n");
const RUBRIC = parseRubric(
  "## Criterion: fixed — Fixed\nCeiling: reference_fix\nThe bug is gone.\n\n## Criterion: kind — Kind\nPolite.\n",
);

describe("the reference fix for rubric judges", () => {
  it("scores the recording against REFERENCE_FIX.md, and tells the judge the numbers and what they cap", async () => {
    const directory = await makeTempDir();
    await writeFile(join(directory, "REFERENCE_FIX.md"), REFERENCE);
    const evidence = await recordEvidence({
      directory: join(directory, "evidence"),
      prompt: "Fix add.",
      response: "Fixed.",
      workspace: {
        initial: { "add.js": "export const add = (a, b) => a - b;\n", "README.md": "add subtracts\n" },
        final: { "add.js": "export const add = (a, b) => a + b;\n", "README.md": "add subtracts\n" },
      },
    });
    const evaluation = { directory, rubric: RUBRIC, judgeFiles: [{ path: "REFERENCE_FIX.md", sha256: "x" }] };
    const score = (await scoreReferenceFix(evaluation, evidence, null))!;
    expect(score).toMatchObject({
      structural: 0.5,
      textual: 1,
      matched_files: ["add.js"],
      missing_files: ["README.md"],
    });
    expect(score.value).toBeCloseTo(0.7);
    expect(referenceFactsText(score, cappedCriteria(evaluation))).toBe(
      [
        "Facts from openeval (computed by the harness before you started; not the candidate's words, and authoritative):",
        "- The reference-fix scorer compared the candidate's final changes with the eval's reference fix (REFERENCE_FIX.md): value 0.700 (structural 0.500: how far the changed files match; textual 1.000: how alike the added lines are).",
        "- Files both changed: add.js. Files the reference changes and the candidate does not: README.md. Files only the candidate changed: none.",
        "- fixed is capped at 0.700: whatever you score it, the recorded score will not exceed that value. Still judge on the evidence.",
      ].join("\n"),
    );
    // No facts without a reference fix, or without a rubric to tell them to.
    expect(await scoreReferenceFix({ ...evaluation, judgeFiles: [] }, evidence, null)).toBeNull();
    expect(await scoreReferenceFix({ ...evaluation, rubric: null }, evidence, null)).toBeNull();
  });

  it("caps only the capped criteria at the scorer's value, recording the cap and the judge's score", () => {
    const capped = applyCeilings(
      {
        fixed: { value: 1, source: "judge.md", reason: "All good." },
        kind: { value: 1, source: "judge.md" },
        other: { value: null, source: "judge.md" },
      },
      ["fixed", "other"],
      0.7,
    );
    expect(capped).toEqual({
      fixed: {
        value: 0.7,
        source: "judge.md",
        reason: "All good.",
        ceiling: { kind: "reference_fix", value: 0.7, judged: 1 },
      },
      kind: { value: 1, source: "judge.md" },
      other: { value: null, source: "judge.md", ceiling: { kind: "reference_fix", value: 0.7, judged: null } },
    });
    expect(applyCeilings({ fixed: { value: 0.2, source: "judge.md" } }, ["fixed"], 0.7).fixed!.value).toBe(0.2);
  });
});
