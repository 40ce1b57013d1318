// candidate.maxSteps and candidate.maxTokens through `openeval run`: controls that would loop forever are stopped by
// whichever limit they pass first, recorded with the state naming it, and judged as they stand; a control within
// both limits completes.
import { beforeAll, describe, expect, it } from "vitest";
import type { EvalRun, JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { onlyRunDirectory, readSlot } from "../helpers/results.ts";

// Each step appends one note. OpenCode reports a step finished once its tool calls have run; the tool waits first,
// far longer than stopping a session takes, so a step begun while the stop lands never writes its note.
const noteTurn = (usage: { input: number; output: number }) => ({
  tools: [{ name: "bash", input: { command: "sleep 2; echo note >> notes.txt", description: "Append a note" } }],
  usage,
});
const light = { input: 100, output: 10 };
const heavy = { input: 2_000, output: 100 };

let directory: string;
let run: CliResult;

beforeAll(async () => {
  directory = await writeTree({
    "benchmark.ts": `export default {
  models: ["control/looping", "control/chatty", "control/brief"],
  repetitions: 1,
  candidate: { timeoutMs: 240_000, maxSteps: 4, maxTokens: 5_000 },
};\n`,
    "evals/notes/prompt.md": "Append a line to notes.txt ten times, then say done.\n",
    // As it stands: a tenth of the task per note written.
    "evals/notes/judge.ts": `export default async (ctx) => {
  const notes = await ctx.workspace.text("notes.txt").catch(() => "");
  return { scores: { notes: Math.min(1, notes.split("\\n").filter(Boolean).length / 10) } };
};\n`,
    // 110 tokens a step, forever: the fifth step passes maxSteps long before 5,000 tokens.
    "evals/notes/controls/looping.json": JSON.stringify({ turns: [noteTurn(light)] }),
    // 2,100 tokens a step, forever: the third step's end passes maxTokens (6,300 > 5,000) before maxSteps.
    "evals/notes/controls/chatty.json": JSON.stringify({ turns: [noteTurn(heavy)] }),
    // Three steps and 330 tokens: within both limits.
    "evals/notes/controls/brief.json": JSON.stringify({
      turns: [noteTurn(light), noteTurn(light), { text: "done", usage: light }],
    }),
  });
  run = await runCli(["run", "--benchmark", directory, "--concurrency", "3"], { timeoutMs: 500_000 });
});

function slotOf(model: string): { evalRun: EvalRun; judgeRun?: JudgeRun } {
  return readSlot(onlyRunDirectory(directory), "notes", model);
}

describe("candidate limits", () => {
  it("finish the run complete: limited runs are the candidates' own outcomes, judged, not infrastructure errors", () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/candidate notes × control\/looping #1: step limited in /);
    expect(run.stderr).toMatch(/candidate notes × control\/chatty #1: token limited in /);
  });

  it("maxSteps stops a looping control once its fourth step, tool call run, asks for more", () => {
    const { evalRun, judgeRun } = slotOf("control/looping");
    expect(evalRun).toMatchObject({
      state: "step_limited",
      infrastructureError: false,
      error: "The model went on after 4 steps, the most maxSteps allows; the run was stopped.",
      input: { maxSteps: 4, maxTokens: 5_000 },
    });
    expect(evalRun.metrics?.tools.succeeded).toBe(4);
    // Judged as it stands: four notes of ten.
    expect(judgeRun).toMatchObject({ state: "completed", scores: { notes: { value: 0.4 } } });
  });

  it("maxTokens stops a control once its recorded input + output tokens pass it, at the step that passes them", () => {
    const { evalRun, judgeRun } = slotOf("control/chatty");
    expect(evalRun).toMatchObject({
      state: "token_limited",
      infrastructureError: false,
      error: "Recorded tokens 6300 (input + output) passed maxTokens 5000; the run was stopped.",
    });
    // The live count is the recorded one: three whole steps, tool calls included, and nothing of a fourth.
    const tokens = evalRun.metrics!.tokens;
    expect(tokens.input! + tokens.output!).toBe(6_300);
    expect(evalRun.metrics?.tools.succeeded).toBe(3);
    expect(judgeRun).toMatchObject({ state: "completed", scores: { notes: { value: 0.3 } } });
  });

  it("a control within both limits completes and is judged as usual", () => {
    const { evalRun, judgeRun } = slotOf("control/brief");
    expect(evalRun).toMatchObject({ state: "completed", infrastructureError: false, error: null });
    expect(evalRun.metrics?.tokens).toMatchObject({ input: 300, output: 30 });
    expect(judgeRun).toMatchObject({ state: "completed", scores: { notes: { value: 0.2 } } });
  });
});
