import { describe, expect, it } from "vitest";
import { parseRubric } from "../../load/index.ts";
import { judgeSystemPrompt } from "./judge-agent.ts";

describe("judgeSystemPrompt", () => {
  it("gives the judge the rubric without its Categories lines (categories are metadata, not grading guidance)", () => {
    const prompt = judgeSystemPrompt(
      parseRubric(
        "# Answer\n\n## Criterion: exact — Exact\nCategories: accuracy, Speed\nPass when the reply is APPLE.\n",
      ),
    );
    expect(prompt).toContain("## Criterion: exact — Exact\nPass when the reply is APPLE.");
    expect(prompt).not.toMatch(/categor/i);
  });
});
