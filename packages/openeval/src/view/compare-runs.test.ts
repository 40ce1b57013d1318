import { cp, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { runCli } from "../../../../test/helpers/cli.ts";
import { ResultsStore } from "../records/index.ts";
import { handleApi } from "./api.ts";
import type { Page } from "./api-types.ts";
import { selectChanges, summarizeComparison } from "./compare-pages.ts";
import type { ChangeRow, ComparisonAnswer, ComparisonSummary } from "./compare-types.ts";
import { compareRuns } from "./compare-runs.ts";
import { CompareError } from "./errors.ts";
import { RunCatalog } from "./run-catalog.ts";
import { ViewerData } from "./viewer-data.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

const ALPHA = "provider/alpha";
let fixture: ViewerFixture;
let runB: string;
let data: ViewerData;

beforeAll(async () => {
  // Run a, and run b: a copy in which repetition 1 of eval-0001 × alpha was judged again and lost focused_fix.
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 3,
    models: [ALPHA, "control/negative"],
    repetitions: 2,
  });
  runB = join(fixture.benchmarkDirectory, "results", `${fixture.runId}-b`);
  await cp(fixture.runDirectory, runB, { recursive: true });
  const store = ResultsStore.open(runB);
  const judged = fixture.judgeRuns.find(
    (run) => run.slot.evalId === "eval-0001" && run.slot.model === ALPHA && run.slot.repetition === 1,
  )!;
  store.saveJudgeRun({
    ...judged,
    id: "judge_rejudged-0000",
    scores: { ...judged.scores!, focused_fix: { value: 0, source: "judge.md" } },
  });
  store.close();
  data = new ViewerData(RunCatalog.open({ resultsRoot: join(fixture.benchmarkDirectory, "results") }));
});
afterAll(() => data.close());

const alphaOf = (answer: ComparisonAnswer) => answer.pairs.find((pair) => pair.b === ALPHA)!;
const criterion = (answer: ComparisonAnswer, evalId: string, id: string) =>
  alphaOf(answer)
    .evals.find((evaluation) => evaluation.evalId === evalId)!
    .criteria.find((entry) => entry.criterionId === id)!;

describe("compareRuns (two runs)", () => {
  it("shows the rejudged criterion as a regression with its difference, and the paired difference with a CI", async () => {
    const answer = await compareRuns({ a: fixture.runDirectory, b: runB });
    expect(answer.a).toMatchObject({ kind: "run", runId: fixture.runId });
    expect(answer.b).toMatchObject({ kind: "run", runId: basename(runB) });
    expect(answer.pairs.map((pair) => [pair.a, pair.b])).toEqual([
      [ALPHA, ALPHA],
      ["control/negative", "control/negative"],
    ]);
    expect(criterion(answer, "eval-0001", "focused_fix")).toMatchObject({
      a: 1,
      b: 0.5,
      difference: -0.5,
      status: "regression",
    });
    expect(criterion(answer, "eval-0001", "tests_pass")).toMatchObject({ difference: 0, status: "unchanged" });
    const alpha = alphaOf(answer);
    expect(alpha.counts).toEqual({ regression: 1, improvement: 0, unchanged: 5, unresolved: 0, missing: 0 });
    // eval-0001 drops from 100 to 75 points; the mean over the three paired evals is −25 / 3.
    expect(alpha.paired.meanDifference).toBeCloseTo(-25 / 3);
    expect(alpha.paired.pairedEvals).toBe(3);
    expect(alpha.paired.interval!.lower).toBeCloseTo(-25);
    expect(alpha.paired.interval!.upper).toBeCloseTo(0);
    expect(alpha.scoreA.value).toBe(100);
    expect(alpha.scoreB.value).toBeCloseTo(100 - 25 / 3);
    expect(answer.pairs[1]!.counts.regression).toBe(0);
  });

  it("pairs the slots' eval runs and judgments, so both transcripts can open side by side", async () => {
    const answer = await compareRuns({ a: fixture.runDirectory, b: runB });
    const slots = alphaOf(answer).evals[0]!.slots;
    expect(slots.map((slot) => slot.repetition)).toEqual([1, 2]);
    expect(slots[0]!.a!.evalRunId).toBe(slots[0]!.b!.evalRunId); // run b is a copy: the same recording
    expect(slots[0]!.a!.judgeRunId).not.toBe("judge_rejudged-0000");
    expect(slots[0]!.b!.judgeRunId).toBe("judge_rejudged-0000");
  });

  it("compares two models of one run, and refuses a run against itself without them", async () => {
    const answer = await compareRuns({ a: runB, b: runB, modelA: ALPHA, modelB: "control/negative" });
    expect(answer.pairs).toHaveLength(1);
    expect(answer.pairs[0]!.evals[1]!.criteria.find((entry) => entry.criterionId === "focused_fix")).toMatchObject({
      a: 1,
      b: 0,
      status: "regression",
    });
    await expect(compareRuns({ a: runB, b: runB })).rejects.toThrow(
      /with itself needs two of its models \(provider\/alpha, control\/negative\)/,
    );
  });

  it("names a model a side lacks, with the ones it has", async () => {
    await expect(compareRuns({ a: fixture.runDirectory, b: runB, modelA: "provider/nope" })).rejects.toThrow(
      CompareError,
    );
    await expect(compareRuns({ a: fixture.runDirectory, b: runB, modelA: "provider/nope" })).rejects.toThrow(
      /has no model provider\/nope; its models are provider\/alpha, control\/negative/,
    );
  });
});

/** baseline.json with alpha passing tests_pass and scoring `focusedFix` on focused_fix in every eval. */
async function writeBaseline(focusedFix: number): Promise<void> {
  const entries = ["eval-0001", "eval-0002", "eval-0003"].map((evalId) => ({
    evalId,
    model: ALPHA,
    candidateFingerprints: [],
    judgeFingerprints: [],
    criteria: { tests_pass: 1, focused_fix: focusedFix },
  }));
  const baseline = {
    format: "openeval.baseline",
    version: 1,
    runId: fixture.runId,
    createdAt: "2026-11-29T13:00:00.000Z",
    verdict: "pass",
    acceptedFailing: false,
    gate: [],
    entries,
  };
  await writeFile(join(fixture.benchmarkDirectory, "baseline.json"), JSON.stringify(baseline));
}

describe("compareRuns (baseline.json)", () => {
  it("says how to set a baseline when there is none", async () => {
    await expect(compareRuns({ a: "baseline", b: runB })).rejects.toThrow(
      /No baseline at .*baseline\.json; set one with `openeval baseline set <run-dir>`/,
    );
  });

  it("compares a run with the baseline's per-criterion scores (no recordings on the baseline side)", async () => {
    await writeBaseline(1);
    const answer = await compareRuns({ a: "baseline", b: runB });
    expect(answer.a).toMatchObject({ kind: "baseline", runId: fixture.runId });
    expect(answer.pairs.map((pair) => pair.b)).toEqual([ALPHA]);
    expect(criterion(answer, "eval-0001", "focused_fix")).toMatchObject({ difference: -0.5, status: "regression" });
    expect(alphaOf(answer).evals[0]!.slots).toEqual([]);
  });
});

describe("GET /api/compare and /api/compare/changes", () => {
  const get = (path: string) => handleApi(data, new Request(`http://127.0.0.1/api/${path}`));
  const json = async <T>(path: string): Promise<T> => {
    const response = await get(path);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const runs = () => `a=${fixture.runId}&b=${basename(runB)}`;

  it("answers each pair without its evals, and the library's changes in pages of the compare page's order", async () => {
    const library = JSON.parse(
      JSON.stringify(await compareRuns({ a: fixture.runDirectory, b: runB })),
    ) as ComparisonAnswer;
    const summary = await json<ComparisonSummary>(`compare?${runs()}`);
    expect(summary).toEqual(summarizeComparison(library));
    expect(summary.pairs.map((pair) => [pair.b, pair.evalCount, pair.counts.regression])).toEqual([
      [ALPHA, 3, 1],
      ["control/negative", 3, 0],
    ]);
    for (const [pair, view] of library.pairs.entries()) {
      const pages: Page<ChangeRow>[] = [];
      for (const offset of [0, 4])
        pages.push(
          await json<Page<ChangeRow>>(
            `compare/changes?${runs()}&pair=${pair}&sort=difference&offset=${offset}&limit=4`,
          ),
        );
      expect(pages.map((page) => [page.total, page.offset, page.items.length])).toEqual([
        [6, 0, 4],
        [6, 4, 2],
      ]);
      expect(pages.flatMap((page) => page.items)).toEqual(selectChanges(view, { sort: "difference" }));
    }
  });

  it("filters by status and sorts on the server before paging", async () => {
    const regressions = await json<Page<ChangeRow>>(`compare/changes?${runs()}&status=regression`);
    expect(regressions).toMatchObject({
      total: 1,
      offset: 0,
      items: [
        {
          evalId: "eval-0001",
          criterionId: "focused_fix",
          difference: -0.5,
          evalChange: { evalId: "eval-0001", status: "regression" },
        },
      ],
    });
    expect(regressions.items[0]!.slots.map((slot) => slot.b?.judgeRunId)).toEqual([
      "judge_rejudged-0000",
      expect.any(String),
    ]);
    const byEval = await json<Page<ChangeRow>>(`compare/changes?${runs()}&sort=eval&desc=1&limit=2`);
    expect(byEval.items.map((row) => `${row.evalId}/${row.criterionId}`)).toEqual([
      "eval-0003/tests_pass",
      "eval-0003/focused_fix",
    ]);
  });

  it("cuts every page from the one comparison it keeps", async () => {
    const request = { a: fixture.runId, b: basename(runB) };
    const kept = await data.compare(request);
    await get(`compare?${runs()}`);
    await get(`compare/changes?${runs()}&offset=2&limit=2&sort=b`);
    expect(await data.compare(request)).toBe(kept);
  });

  it("404s an unknown run and 400s an unknown model with the message", async () => {
    expect((await get(`compare?a=nope&b=${basename(runB)}`)).status).toBe(404);
    expect((await get(`compare/changes?a=nope&b=${basename(runB)}`)).status).toBe(404);
    const response = await get(`compare?${runs()}&ma=provider/nope`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/has no model provider\/nope/);
    expect((await get(`compare?b=${basename(runB)}`)).status).toBe(400);
  });

  it.each([
    ["sort=bogus", 'Invalid query: sort: Invalid option: expected one of "eval"|"difference"|"a"|"b"|"status"'],
    [
      "status=worse",
      'Invalid query: status: Invalid option: expected one of "regression"|"improvement"|"unresolved"|"missing"|"unchanged"',
    ],
    ["offset=-1", "Invalid query: offset: Too small: expected number to be >=0"],
    ["limit=501", "Invalid query: limit: Too big: expected number to be <=500"],
    ["limit=0", "Invalid query: limit: Too small: expected number to be >=1"],
    ["desc=yes", 'Invalid query: desc: Invalid option: expected one of "0"|"1"'],
    ["pair=-1", "Invalid query: pair: Too small: expected number to be >=0"],
    ["pair=2", "pair: this comparison has 2 model pair(s), at positions 0 to 1; got 2"],
  ])("400s a bad page parameter, naming it and what it may be: %s", async (parameter, message) => {
    const response = await get(`compare/changes?${runs()}&${parameter}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message });
  });
});

describe("openeval report --compare", () => {
  it("prints the regression as a table and as JSON, and errors for an unknown run", async () => {
    const benchmark = ["--benchmark", fixture.benchmarkDirectory];
    const table = await runCli(["report", "--compare", fixture.runId, basename(runB), ...benchmark]);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/regression\s+eval-0001\/focused_fix\s+100\.0\s+50\.0\s+−50\.0/);
    expect(table.stdout).toContain("paired difference −8.3 (95% CI −25.0 to ±0.0) over 3 eval(s)");
    const json = await runCli(["report", "--compare", fixture.runId, runB, "--json", ...benchmark]);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(criterion(JSON.parse(json.stdout) as ComparisonAnswer, "eval-0001", "focused_fix")).toMatchObject({
      difference: -0.5,
      status: "regression",
    });
    const unknown = await runCli(["report", "--compare", "no-such-run", basename(runB), ...benchmark]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/no-such-run is not a run: pass a results\/<run-id> folder or a run id under/);
    // Without --compare, a run's summary: it needs the run's benchmark.ts, which this fixture has not.
    const summary = await runCli(["report", basename(runB), ...benchmark]);
    expect(summary.exitCode).toBe(2);
    expect(summary.stderr).toContain(`benchmark.ts: not found in ${fixture.benchmarkDirectory}`);
  });
});

describe("the viewer's comparison of a run that changes", () => {
  it("is kept with baseline.json until `baseline set` rewrites the file (its pages are cut from the kept one)", async () => {
    await writeBaseline(1);
    const request = { a: "baseline", b: basename(runB) };
    const kept = (await data.compare(request))!;
    expect(kept.pairs[0]!.counts.regression).toBe(1);
    await data.compareChanges(request, { pair: 0, offset: 0, limit: 2 });
    expect(await data.compare(request)).toBe(kept);
    await writeBaseline(0.5);
    expect((await data.compare(request))!.pairs[0]!.counts.regression).toBe(0);
  });

  it("is made again when either run's store changes (it is kept per version of both)", async () => {
    const request = { a: fixture.runId, b: basename(runB) };
    expect((await data.compare(request))!.pairs[0]!.counts.regression).toBe(1);
    const store = ResultsStore.open(runB);
    const judged = fixture.judgeRuns.find(
      (run) => run.slot.evalId === "eval-0001" && run.slot.model === ALPHA && run.slot.repetition === 1,
    )!;
    store.saveJudgeRun({ ...judged, id: "judge_rejudged-0001" });
    store.close();
    await Bun.sleep(600); // the catalog looks at a store's files at most every 500 ms
    expect((await data.compare(request))!.pairs[0]!.counts.regression).toBe(0);
  });
});
