// earlyStop for a candidate in a container: each check records a live copy brought out of the
// running container (its workspace, and its database copied inside it), so a candidate that would never finish is
// stopped once a check decides, and that judgment is final — as on the host. Nothing of the run stays behind.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { ResultsStore, type EvalRun, type JudgeRun } from "../../packages/openeval/src/records/index.ts";
import { openSandboxEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

const reachable = await isEngineReachable();
const noteTurn = {
  tools: [{ name: "bash", input: { command: "echo step >> notes.txt", description: "note" } }],
  delayMs: 300,
};
let directory: string;
let run: CliResult;

beforeAll(async () => {
  if (!reachable) return;
  await buildCandidateImage();
  directory = await writeTree({
    "benchmark.ts": `export default {
  models: ["control/looping"],
  repetitions: 1,
  concurrency: 2,
  judge: { model: "control/judge", timeoutMs: 90_000 },
  candidate: { timeoutMs: 150_000, isolation: "container" },
};\n`,
    // Never finishes by itself (a control repeats its last turn): only a decided check can end it before the timeout.
    "evals/endless/prompt.md": "Keep appending to notes.txt.\n",
    "evals/endless/judge.md":
      "# Notes\n\n## Criterion: kept_notes — Kept notes\n\nThe candidate appends to notes.txt and never deletes it.\n",
    "evals/endless/eval.ts": "export default { earlyStop: { minIntervalMs: 1, maxChecks: 3 } };\n",
    "evals/endless/controls/looping.json": JSON.stringify({
      turns: [noteTurn],
      verdict: { kept_notes: { value: true, reason: "notes.txt only ever grows." } },
    }),
  });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 420_000 });
}, 600_000);

describe.skipIf(!reachable)("earlyStop of a candidate in a container", () => {
  it("stops it once a check of a live copy decides, and keeps that judgment as final", async () => {
    expect(run.stderr).toMatch(/every criterion decided; stopping the candidate/);
    const runId = readdirSync(join(directory, "results"))[0]!;
    const store = ResultsStore.open(join(directory, "results", runId), { readonly: true });
    let evalRun: EvalRun;
    let judgeRun: JudgeRun | undefined;
    try {
      evalRun = store.evalRuns()[0]!;
      judgeRun = store.judgeRuns(evalRun.id)[0];
    } finally {
      store.close();
    }
    expect(evalRun).toMatchObject({ state: "stopped", input: { isolation: "container" } });
    const checks = evalRun.earlyStop?.checks ?? [];
    expect(checks.at(-1)).toMatchObject({ outcome: "decided", reason: null });
    expect(judgeRun).toMatchObject({
      state: "completed",
      kind: "rubric",
      decidedEarly: { check: checks.at(-1)!.check },
    });
    // The checkpoint holds what the agent had written inside the container by then.
    const checkpoint = JSON.parse(
      readFileSync(
        join(directory, "results", runId, judgeRun!.decidedEarly!.checkpoint.directory, "manifest.json"),
        "utf8",
      ),
    );
    expect(checkpoint.final.files.map((file: { path: string }) => file.path)).toContain("notes.txt");
    expect(checkpoint.native.rootSessionID).toMatch(/^ses_/);
    expect(await (await openSandboxEngine("container")).list({ "openeval.run": runId })).toEqual([]);
  });
});
