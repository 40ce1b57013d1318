// Which evals the audit plays attacks on, and against which references.
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark, type EvalDefinition } from "../load/index.ts";
import { auditBenchmark, planEvalAudit } from "./audit.ts";

async function loadEval(files: Record<string, string>, benchmark: string): Promise<EvalDefinition> {
  const directory = await writeTree({ "benchmark.ts": benchmark, ...files });
  return (await loadBenchmark(directory)).evals[0]!;
}

describe("planEvalAudit", () => {
  const RUBRIC = {
    "evals/essay/prompt.md": "Write an essay to `essay.md`.\n",
    "evals/essay/judge.md": "## Criterion: clear — Is clear\nPass when it is clear.\n",
    "evals/essay/controls/positive.json": JSON.stringify({ turns: [{ text: "ok" }] }),
    "evals/essay/controls/positive-short.json": JSON.stringify({ turns: [{ text: "ok" }] }),
    "evals/essay/controls/negative.json": JSON.stringify({ turns: [{ text: "no" }] }),
  };
  const withJudge = (model: string) =>
    `export default { models: ["control/positive"], repetitions: 1, judge: { model: "${model}" } };\n`;

  it("does not audit a judge.md eval graded by the scripted judge, and says what it needs", async () => {
    const evaluation = await loadEval(RUBRIC, withJudge("control/judge"));
    expect(planEvalAudit(evaluation, ["control/judge"])).toEqual({
      evalId: "essay",
      notAudited:
        "not audited: its judge.md needs real judge models to grade attacks (control/judge replays only the verdicts control files declare)",
      references: [],
      attacks: [],
    });
  });

  it("audits it with a real judge.model, against every positive control", async () => {
    const evaluation = await loadEval(RUBRIC, withJudge("openai/gpt-5"));
    const plan = planEvalAudit(evaluation, ["openai/gpt-5"]);
    expect(plan.notAudited).toBeNull();
    expect(plan.references).toEqual(["control/positive", "control/positive-short"]);
    expect(plan.attacks.filter((attack) => attack.applicable).map((attack) => attack.name)).toContain(
      "attack-prompt-output",
    );
  });

  it("takes a Harbor task's oracle as its reference", async () => {
    const evaluation = await loadEval(
      {
        "evals/hello/task.toml": 'version = "1.0"\n',
        "evals/hello/instruction.md": "Create `hello.txt`.\n",
        "evals/hello/environment/Dockerfile": "FROM debian:bookworm-slim\nWORKDIR /app\n",
        "evals/hello/tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n",
        "evals/hello/solution/solve.sh": "echo hi > /app/hello.txt\n",
      },
      `export default { models: ["control/oracle"], repetitions: 1 };\n`,
    );
    expect(planEvalAudit(evaluation, []).references).toEqual(["control/oracle"]);
  });
});

describe("auditBenchmark", () => {
  it("refuses, before anything runs, an eval whose own control file bears an attack's name", async () => {
    const directory = await writeTree({
      "benchmark.ts": `export default { models: ["control/positive"], repetitions: 1 };\n`,
      "evals/count/prompt.md": "Write `count.txt`.\n",
      "evals/count/judge.ts": "export default () => ({ scores: { ok: true } });\n",
      "evals/count/controls/positive.json": JSON.stringify({ turns: [{ text: "ok" }] }),
      "evals/count/controls/attack-empty.json": JSON.stringify({ turns: [{ text: "mine" }] }),
    });
    await expect(auditBenchmark({ benchmark: directory })).rejects.toThrow(
      "these evals have control files of the same name:\n  evals/count/controls/attack-empty.json\nRename those control files",
    );
  });
});
