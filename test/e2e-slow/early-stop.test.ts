// earlyStop through `openeval run`: a candidate that would never finish is stopped once a check of a
// snapshot decides every criterion, and that judgment is final; a check that cannot decide lets the run finish and
// be graded; --final-only makes no checks at all.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUBRIC_FILES } from "../../packages/openeval/src/judge/index.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { EvalRun, JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

const rubric =
  "# Notes\n\n## Criterion: kept_notes — Kept notes\n\nThe candidate appends to notes.txt and never deletes it.\n";
const noteTurn = {
  tools: [{ name: "bash", input: { command: "echo step >> notes.txt", description: "note" } }],
  delayMs: 300,
};
const decided = { kept_notes: { value: true, reason: "notes.txt only ever grows." } };

let directory: string;
let stopped: CliResult;
let finalOnly: CliResult;

beforeAll(async () => {
  directory = await writeTree({
    "benchmark.ts": `export default {
  models: ["control/looping"],
  repetitions: 1,
  concurrency: 2,
  judge: { model: "control/judge", timeoutMs: 90_000 },
  candidate: { timeoutMs: 150_000 },
};\n`,
    // Never finishes by itself (a control repeats its last turn): only a decided check can end it before the timeout.
    "evals/endless/prompt.md": "Keep appending to notes.txt.\n",
    "evals/endless/judge.md": rubric,
    "evals/endless/eval.ts": "export default { earlyStop: { minIntervalMs: 1, maxChecks: 3 } };\n",
    "evals/endless/controls/looping.json": JSON.stringify({ turns: [noteTurn], verdict: decided }),
    // The scripted verdict leaves the criterion open, so every check continues: the run finishes and is graded.
    "evals/undecided/prompt.md": "Append to notes.txt three times, then say done.\n",
    "evals/undecided/judge.md": rubric,
    "evals/undecided/eval.ts": "export default { earlyStop: { minIntervalMs: 1, maxChecks: 2 } };\n",
    "evals/undecided/controls/looping.json": JSON.stringify({
      turns: [noteTurn, noteTurn, noteTurn, { ...noteTurn, delayMs: 20_000 }, { text: "done" }],
      verdict: { kept_notes: { value: null, reason: "Cannot tell yet." } },
    }),
    // The same endless candidate under --final-only: it runs to its timeout and only then is graded.
    "evals/final-only/prompt.md": "Keep appending to notes.txt.\n",
    "evals/final-only/judge.md": rubric,
    "evals/final-only/eval.ts": "export default { earlyStop: { minIntervalMs: 1 }, timeoutMs: 30_000 };\n",
    "evals/final-only/controls/looping.json": JSON.stringify({ turns: [noteTurn], verdict: decided }),
  });
  stopped = await runCli(["run", "--benchmark", directory, "--only-eval", "endless", "--only-eval", "undecided"], {
    timeoutMs: 420_000,
  });
  finalOnly = await runCli(["run", "--benchmark", directory, "--only-eval", "final-only", "--final-only"], {
    timeoutMs: 300_000,
  });
});

function records(evalId: string): { evalRun: EvalRun; judgeRun: JudgeRun | undefined; store: string } {
  const root = join(directory, "results");
  const store = ResultsStore.open(join(root, readdirSync(root)[0]!), { readonly: true });
  try {
    const evalRun = store.evalRuns().find((run) => run.slot.evalId === evalId)!;
    const judgeRun = store.judgeRuns().find((run) => run.evalRunId === evalRun.id);
    return { evalRun, judgeRun, store: store.directory };
  } finally {
    store.close();
  }
}

describe("earlyStop", () => {
  it("stops a candidate once a check decides, and keeps that judgment as final", () => {
    expect(stopped.stderr).toMatch(
      /check +endless × control\/looping #1, check \d+: every criterion decided; stopping the candidate/,
    );
    const { evalRun, judgeRun, store } = records("endless");
    expect(evalRun.state).toBe("stopped");
    expect(evalRun.error).toMatch(/^Stopped early: an earlyStop check decided every criterion/);
    const checks = evalRun.earlyStop?.checks ?? [];
    expect(checks.at(-1)).toMatchObject({ outcome: "decided", reason: null });
    expect(judgeRun).toMatchObject({
      state: "completed",
      kind: "rubric",
      decidedEarly: { check: checks.at(-1)!.check },
    });
    expect(judgeRun!.scores!.kept_notes).toMatchObject({
      value: 1,
      source: "judge.md",
      reason: "notes.txt only ever grows.",
    });
    // The decisive check's snapshot and its judge archive are kept with the run, beside the final recording.
    expect(existsSync(join(store, judgeRun!.decidedEarly!.checkpoint.directory, "manifest.json"))).toBe(true);
    expect(existsSync(join(store, judgeRun!.directory, "rubric", "submission.json"))).toBe(true);
    expect(evalRun.evidence).not.toBeNull();
  });

  it("lets a run that no check can decide finish, and grades its final recording", () => {
    const { evalRun, judgeRun } = records("undecided");
    expect(evalRun.state).toBe("completed");
    const checks = evalRun.earlyStop?.checks ?? [];
    expect(checks.length).toBeGreaterThanOrEqual(1);
    // The last check may still be running when the candidate ends; it is then cancelled, never decided.
    expect(checks[0]!.outcome).toBe("continue");
    for (const check of checks) expect(["continue", "cancelled"]).toContain(check.outcome);
    expect(checks[0]!.reason).toBe("kept_notes: Cannot tell yet.");
    expect(judgeRun).toMatchObject({ state: "completed", kind: "rubric" });
    expect(judgeRun!.decidedEarly).toBeUndefined();
    expect(judgeRun!.scores!.kept_notes!.value).toBeNull();
  });

  it("makes no checks under --final-only: the endless candidate runs to its timeout and is graded after", () => {
    expect(finalOnly.stderr).not.toMatch(/check +final-only/);
    const { evalRun, judgeRun } = records("final-only");
    expect(evalRun.state).toBe("timed_out");
    expect(evalRun.earlyStop).toBeUndefined();
    expect(judgeRun).toMatchObject({ state: "completed", kind: "rubric" });
    expect(judgeRun!.decidedEarly).toBeUndefined();
    expect(judgeRun!.scores!.kept_notes!.value).toBe(1);
  });

  it("starts every judge session, early checks and final gradings alike, from the tool server frozen with the run", () => {
    const root = join(directory, "results");
    const run = join(root, readdirSync(root)[0]!);
    const folders = (readdirSync(run, { recursive: true }) as string[])
      .filter((path) => path.endsWith(`rubric/${RUBRIC_FILES.agent}`))
      .map((path) => join(run, path, ".."));
    for (const folder of folders) {
      const agent = JSON.parse(readFileSync(join(folder, RUBRIC_FILES.agent), "utf8")) as {
        mcp: { judge: { command: string[] } };
      };
      const server = agent.mcp.judge.command.at(-1)!;
      expect(server).toMatch(new RegExp(`^${join(run, "inputs", "harness")}/judge-tools-[0-9a-f]{16}\\.js$`));
      expect(existsSync(server)).toBe(true);
    }
    // They answered: the frozen bundle is what OpenCode ran, not merely what the config named (a check cancelled
    // when its candidate ended may have been stopped before its tool server started, and leaves no log).
    const answered = folders.filter((folder) => existsSync(join(folder, RUBRIC_FILES.log)));
    for (const folder of answered)
      expect(readFileSync(join(folder, RUBRIC_FILES.log), "utf8")).toMatch(/^\{"type":"ready"/);
    expect(answered.filter((folder) => folder.includes("/checks/")).length).toBeGreaterThanOrEqual(2);
    expect(answered.filter((folder) => folder.includes("/judge-runs/")).length).toBe(2);
  });
});
