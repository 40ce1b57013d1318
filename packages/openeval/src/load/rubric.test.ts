import { describe, expect, it } from "vitest";
import { parseRubric } from "./rubric.ts";

describe("parseRubric", () => {
  it("reads criteria with em dash, en dash and hyphen, keeping each section's text", () => {
    const rubric = parseRubric(
      "# Title\n\n## Criterion: first_one — First label\nPass when A.\n\n### Detail\nStill first.\n\n## Criterion: second – Second\nPass when B.\n\n## Criterion: third3 - Third\nC.\n",
    );
    expect(rubric.title).toBe("Title");
    expect(rubric.criteria.map(({ id, label }) => [id, label])).toEqual([
      ["first_one", "First label"],
      ["second", "Second"],
      ["third3", "Third"],
    ]);
    expect(rubric.criteria[0]!.text).toContain("Still first.");
    expect(rubric.criteria[0]!.text).not.toContain("Pass when B");
  });

  it("rejects duplicate ids, naming the id and line", () => {
    expect(() => parseRubric("## Criterion: a — A\nx\n\n## Criterion: a — Again\ny\n")).toThrow(
      /line 4: duplicate criterion id "a"/,
    );
  });

  it("rejects malformed headings and bad ids", () => {
    expect(() => parseRubric("## Criterion: missing_label\n")).toThrow(
      /malformed heading "## Criterion: missing_label"/,
    );
    expect(() => parseRubric("## Criterion: Bad-Id — Label\n")).toThrow(/criterion id "Bad-Id" must match/);
    expect(() => parseRubric("## Criterion a — no colon\n")).toThrow(/malformed heading/);
  });

  it("rejects the legacy Metric syntax and a rubric without criteria", () => {
    expect(() => parseRubric("## Metric: a — A\n")).toThrow(/old syntax/);
    expect(() => parseRubric("# Just a title\n\nSome text.\n")).toThrow(/has no criteria/);
  });

  it("reads a Categories line under a criterion heading as keys and takes it out of the text the judge reads", () => {
    const rubric = parseRubric(
      "# T\n\n## Criterion: fast — Fast\nCategories: Speed, speed ,  Cost Control\nPass when quick.\n\n## Criterion: plain — Plain\nCategory: safety\nOk.\n\n## Criterion: none — None\nNo categories.\n",
    );
    expect(rubric.criteria.map(({ id, categories }) => [id, categories])).toEqual([
      ["fast", ["speed", "cost control"]],
      ["plain", ["safety"]],
      ["none", []],
    ]);
    expect(rubric.text).toBe(
      "# T\n\n## Criterion: fast — Fast\nPass when quick.\n\n## Criterion: plain — Plain\nOk.\n\n## Criterion: none — None\nNo categories.\n",
    );
    expect(rubric.criteria[0]!.text).toBe("Pass when quick.");
  });

  it("refuses a Categories line away from its heading and a bad category, saying what is allowed", () => {
    expect(() => parseRubric("## Criterion: a — A\n\nCategories: x\n")).toThrow(
      'line 3: a Categories line must come directly below its "## Criterion:" heading',
    );
    expect(() => parseRubric("## Criterion: a — A\nCategories: ok, !bad\n")).toThrow(
      'line 2: category " !bad" is not allowed; a category is 1–64 characters: letters, digits, spaces',
    );
    expect(() => parseRubric("## Criterion: a — A\nCategories:\n")).toThrow("line 2: lists no categories");
    expect(() => parseRubric("## Criterion: a — A\nCategories: x\nz\n\n## Criterion: a — B\ny\n")).toThrow(
      /line 5: duplicate criterion id "a"/,
    );
  });

  it("reads a Ceiling line under a criterion heading, beside its Categories in either order, out of the judge's text", () => {
    const rubric = parseRubric(
      "## Criterion: fixed — Fixed\nCeiling: reference_fix\nCategories: correctness\nThe bug is gone.\n\n## Criterion: tidy — Tidy\nCategories: style\nCeiling: reference_fix\nClean.\n\n## Criterion: kind — Kind\nPolite.\n",
    );
    expect(rubric.criteria.map(({ id, ceiling, categories, text }) => ({ id, ceiling, categories, text }))).toEqual([
      { id: "fixed", ceiling: "reference_fix", categories: ["correctness"], text: "The bug is gone." },
      { id: "tidy", ceiling: "reference_fix", categories: ["style"], text: "Clean." },
      { id: "kind", ceiling: undefined, categories: [], text: "Polite." },
    ]);
    expect(rubric.text).not.toContain("Ceiling");
  });

  it("refuses an unknown ceiling and one away from its heading, saying what is allowed", () => {
    expect(() => parseRubric("## Criterion: a — A\nCeiling: tests\n")).toThrow(
      'line 2: unknown ceiling "tests"; the only ceiling is reference_fix (the eval\'s REFERENCE_FIX.md, scored)',
    );
    expect(() => parseRubric("## Criterion: a — A\n\nCeiling: reference_fix\n")).toThrow(
      'line 3: a Ceiling line must come directly below its "## Criterion:" heading',
    );
  });
});
