// Adaptive repetitions run for real. A variant that leaves a hint in the workspace passes every case, while current
// fails every case: the comparison is decided after the first round, the later repetitions are spared (the plan says
// why), the summary reports the repetitions used against max and what was spared, and the decided run is complete
// enough to become the baseline. Two identical arms are never decided: they run to max and the summary says so.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import { runCli } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

function benchmark(cases: number, repetitions: string, judged: string): Record<string, string> {
  return {
    "benchmark.ts": `export default {
  models: ["control/positive"],
  repetitions: ${repetitions},
  variants: { hinted: { files: { "workspace/HINT.md": "The answer is in the hint.\\n" } } },
};\n`,
    "evals/hint/prompt.md": "Answer item {{input.n}}.\n",
    "evals/hint/cases.jsonl": `${Array.from({ length: cases }, (_, n) => JSON.stringify({ id: `item-${n}`, input: { n } })).join("\n")}\n`,
    "evals/hint/judge.ts": `export default ({ workspace }) => ({ scores: { hinted: ${judged} } });\n`,
    "evals/hint/controls/positive.json": JSON.stringify({ turns: [{ text: "Done." }] }),
  };
}

interface Summary {
  complete: boolean;
  adaptive: {
    level: number;
    max: number;
    saved: { slots: number; usd: number | null };
    comparisons: { a: string; b: string; decidedAfter: number | null; look: { decision: string | null } }[];
  };
}

describe("adaptive repetitions", () => {
  it("stop a variant that passes against a current that fails after the first round, and report the saving", async () => {
    const directory = await writeTree(
      benchmark(
        9,
        `{ min: 1, max: 3, stopWhen: { decided: "variants" } }`,
        `workspace.files().some((file) => file.path === "HINT.md")`,
      ),
    );
    const run = await runCli(["run", "--benchmark", directory]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "Adaptive repetitions (decide variants): 1 of max 3 repetitions used; 36 slots spared (spend unknown)",
    );
    expect(run.stdout).toMatch(/control\/positive \[hinted\] against control\/positive: different after repetition 1/);
    const [runId] = await readdir(join(directory, "results"));
    const store = ResultsStore.open(join(directory, "results", runId!), { readonly: true });
    // Nine cases × two arms, one repetition each: nothing more ran.
    expect(store.evalRuns().map((evalRun) => evalRun.slot.repetition)).toEqual(Array(18).fill(1));
    store.close();

    const summary = JSON.parse((await runCli(["report", "--benchmark", directory, "--json"])).stdout) as Summary;
    expect(summary.complete).toBe(true);
    expect(summary.adaptive).toMatchObject({ level: 1, max: 3, saved: { slots: 36 } });
    expect(summary.adaptive.comparisons).toEqual([
      expect.objectContaining({
        a: "control/positive [hinted]",
        b: "control/positive",
        decidedAfter: 1,
        look: expect.objectContaining({ decision: "different" }),
      }),
    ]);
    const plan = await runCli(["plan", "--benchmark", directory]);
    expect(plan.stdout).toMatch(
      /deferred +hint \(case item-0\) × control\/positive #2 — Adaptive repetitions: decided after repetition 1 \(control\/positive \[hinted\] against control\/positive different\)/,
    );
    // A decided comparison is complete: the run can become the baseline.
    const baseline = await runCli(["baseline", "set", runId!, "--benchmark", directory]);
    expect(baseline.exitCode, baseline.stderr).toBe(0);
  }, 900_000);

  it("run two identical arms to max and say they are not decided", async () => {
    const directory = await writeTree(benchmark(3, `{ min: 1, max: 2, stopWhen: { decided: "variants" } }`, "true"));
    const run = await runCli(["run", "--benchmark", directory]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "Adaptive repetitions: comparisons still undecided; running repetition 2 of 6 slot(s)",
    );
    expect(run.stdout).toContain("Adaptive repetitions (decide variants): 2 of max 2 repetitions used; nothing spared");
    expect(run.stdout).toMatch(/control\/positive \[hinted\] against control\/positive: not decided \(mean \+0\.00/);
    const summary = JSON.parse((await runCli(["report", "--benchmark", directory, "--json"])).stdout) as Summary;
    expect(summary.adaptive).toMatchObject({ level: 2, saved: { slots: 0 } });
    expect(summary.adaptive.comparisons[0]).toMatchObject({ decidedAfter: null, look: { decision: null } });
  }, 900_000);
});
