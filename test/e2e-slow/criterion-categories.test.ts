// End to end: criterion categories with the scripted controls. `--only-category` runs only the evals
// with a criterion in it and scores those criteria; benchmark.ts `categories` composes the benchmark, and adding it
// (or editing a criterion's categories) plans reuse everywhere; per-category scores come out in --json and the viewer API.
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { RunSummary } from "../../packages/openeval/src/summary/index.ts";
import { readRunIndex } from "../../packages/openeval/src/view/run-index.ts";
import { SummaryReader } from "../../packages/openeval/src/view/run-summary.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";

const answerJudge = (exactCategories: string) => `export const criteria = {
  exact: { name: "Replied exactly APPLE", categories: [${exactCategories}] },
  brief: { name: "Replied in at most five characters", categories: ["speed", "Accuracy"] },
};
export default ({ response }) => ({ scores: { exact: response.text === "APPLE", brief: response.text.length <= 5 } });
`;
const controls = (evalId: string) => ({
  [`evals/${evalId}/controls/positive.json`]: JSON.stringify({
    turns: [{ text: "APPLE", usage: { input: 10, output: 1 } }],
  }),
  [`evals/${evalId}/controls/negative.json`]: JSON.stringify({
    turns: [{ text: "apple", usage: { input: 10, output: 1 } }],
  }),
});
const benchmark = (extra = "") =>
  `export default { models: ["control/positive", "control/negative"], repetitions: 2, candidate: { timeoutMs: 120_000 }${extra} };\n`;

let directory: string;
let first: CliResult;

function summaryOf(result: CliResult): RunSummary {
  expect(result.exitCode, result.stderr).toBe(0);
  const events = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; summary?: RunSummary });
  return events.find((event) => event.type === "run.finished")!.summary!;
}

const byCategory = (summary: RunSummary) =>
  summary.categories.map((entry) => [
    entry.category,
    entry.criteria,
    ...entry.models.map(
      (model) => `${model.model}=${model.score.value} [${model.interval?.lower}–${model.interval?.upper}]`,
    ),
  ]);

beforeAll(async () => {
  directory = await writeTree({
    "benchmark.ts": benchmark(),
    "evals/answer/prompt.md": "Reply with exactly APPLE.\n",
    "evals/answer/judge.ts": answerJudge(`"Accuracy"`),
    ...controls("answer"),
    "evals/tone/prompt.md": "Reply with exactly APPLE, politely.\n",
    "evals/tone/judge.ts": `export const criteria = { shouted: { name: "Shouted", categories: ["tone"] } };\nexport default ({ response }) => ({ scores: { shouted: response.text === response.text.toUpperCase() } });\n`,
    ...controls("tone"),
  });
  first = await runCli(["run", "--benchmark", directory, "--only-category", "ACCURACY", "--json"], {
    timeoutMs: 300_000,
  });
}, 320_000);

describe("criterion categories", () => {
  it("--only-category runs and judges only the evals with a criterion in it, and reports per-category scores in --json", async () => {
    const summary = summaryOf(first);
    const runDirectory = join(directory, "results", (await readdir(join(directory, "results")))[0]!);
    const store = ResultsStore.open(runDirectory, { readonly: true });
    const judged = store.judgeRuns().map((judgeRun) => [
      judgeRun.slot.evalId,
      Object.keys(judgeRun.scores ?? {})
        .sort()
        .join(","),
    ]);
    store.close();
    expect(judged).toHaveLength(4);
    expect(new Set(judged.map((entry) => entry.join(":")))).toEqual(new Set(["answer:brief,exact"]));
    expect(summary.outOfScope).toBe(4);
    expect(summary.models.map((model) => [model.model, model.score.value])).toEqual([
      ["control/positive", 100],
      ["control/negative", 50],
    ]);
    expect(byCategory(summary)).toEqual([
      ["accuracy", 2, "control/positive=100 [100–100]", "control/negative=50 [50–50]"],
      ["speed", 1, "control/positive=100 [100–100]", "control/negative=100 [100–100]"],
    ]);
  });

  it("benchmark.ts categories compose the benchmark; adding them and editing a criterion's categories plans reuse", async () => {
    await writeFile(join(directory, "benchmark.ts"), benchmark(`, categories: ["Speed"]`));
    await writeFile(join(directory, "evals/answer/judge.ts"), answerJudge(`"accuracy", "precision"`));
    const plan = await runCli(["plan", "--benchmark", directory, "--json"]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const work = (JSON.parse(plan.stdout) as { work: { eval: string; action: string }[] }).work;
    expect(work.map((slot) => `${slot.eval}:${slot.action}`)).toEqual(Array(4).fill("answer:reuse"));

    const summary = summaryOf(await runCli(["run", "--benchmark", directory, "--json"], { timeoutMs: 120_000 }));
    // Scored over `brief` only, the one criterion in "speed": both controls replied in five characters.
    expect(
      summary.models.map((model) => [
        model.model,
        model.score.value,
        model.evals.map((evaluation) => Object.keys(evaluation.criteria)),
      ]),
    ).toEqual([
      ["control/positive", 100, [["brief"]]],
      ["control/negative", 100, [["brief"]]],
    ]);
    expect(byCategory(summary).map((entry) => entry[0])).toEqual(["speed", "accuracy"]);
    // The viewer's run page shows the same per-category table (its API reads the summary as the CLI does).
    const overview = await new SummaryReader().overview(readRunIndex(summary.directory));
    expect(overview.categories).toEqual(summary.categories);

    const typo = await runCli(["plan", "--benchmark", directory, "--only-category", "tone"]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain(
      '--only-category "tone" matches no criterion category; the valid values are: accuracy, speed',
    );
  });
});
