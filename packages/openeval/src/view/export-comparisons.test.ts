// The static export answers the queue and compare pages without a server: a comparison is exported whole,
// and the browser cuts the compare page's summary and pages from it as the server does.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { queryChanges, summarizeComparison } from "./compare-pages.ts";
import type { ComparisonAnswer } from "./compare-types.ts";
import { exportRun, type ExportResult } from "./export-run.ts";
import type { QueueAnswer } from "./queue-types.ts";
import { RunCatalog } from "./run-catalog.ts";
import { STATIC_CALLBACK, staticDataFile, staticKeys } from "./static-files.ts";
import { ViewerData } from "./viewer-data.ts";
import { writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";

const MODELS = ["provider/alpha", "provider/beta"];
let fixture: ViewerFixture;
let result: ExportResult;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), { evals: 2, models: MODELS, repetitions: 2 });
  const entries = ["eval-0001", "eval-0002"].map((evalId) => ({
    evalId,
    model: "provider/beta",
    candidateFingerprints: [],
    judgeFingerprints: [],
    criteria: { tests_pass: 1, focused_fix: 1 },
  }));
  await writeFile(
    join(fixture.benchmarkDirectory, "baseline.json"),
    JSON.stringify({
      format: "openeval.baseline",
      version: 1,
      runId: "earlier",
      createdAt: "2026-11-28T00:00:00.000Z",
      verdict: "pass",
      acceptedFailing: false,
      gate: [],
      entries,
    }),
  );
  result = await exportRun({ run: fixture.runDirectory, output: join(await makeTempDir(), "export") });
});

function readData<T>(key: string): T {
  const text = readFileSync(join(result.directory, staticDataFile(key)), "utf8");
  const prefix = `${STATIC_CALLBACK}(${JSON.stringify(key)},`;
  expect(text.startsWith(prefix)).toBe(true);
  return JSON.parse(text.slice(prefix.length, text.lastIndexOf(");"))) as T;
}

describe("a static export", () => {
  it("holds each ordered pair of the run's models", () => {
    for (const [a, b] of [
      [MODELS[0]!, MODELS[1]!],
      [MODELS[1]!, MODELS[0]!],
    ]) {
      const answer = readData<ComparisonAnswer>(staticKeys.compare(fixture.runId, fixture.runId, a, b));
      expect(answer.pairs.map((pair) => [pair.a, pair.b])).toEqual([[a, b]]);
    }
    // The fixture's first model passes every criterion and the other only tests_pass.
    const worse = readData<ComparisonAnswer>(staticKeys.compare(fixture.runId, fixture.runId, MODELS[0]!, MODELS[1]!))
      .pairs[0]!;
    expect(worse.counts.regression).toBe(2);
  });

  it("holds the run against baseline.json", () => {
    const answer = readData<ComparisonAnswer>(staticKeys.compare("baseline", fixture.runId));
    expect(answer.a).toMatchObject({ kind: "baseline", runId: "earlier", file: "<benchmark>/baseline.json" });
    expect(answer.pairs[0]!.counts.regression).toBe(2);
  });

  it("gives the server's summary and pages once the browser cuts them from the exported comparison, as it does", async () => {
    const request = { a: fixture.runId, b: fixture.runId, modelA: MODELS[0]!, modelB: MODELS[1]! };
    const exported = readData<ComparisonAnswer>(
      staticKeys.compare(request.a, request.b, request.modelA, request.modelB),
    );
    const data = new ViewerData(
      RunCatalog.open({ run: fixture.runDirectory, resultsRoot: dirname(fixture.runDirectory) }),
    );
    try {
      const served = <T>(answer: T): T => JSON.parse(JSON.stringify(answer)) as T;
      expect(summarizeComparison(exported)).toEqual(served(await data.compareSummary(request)));
      const query = { pair: 0, sort: "b" as const, descending: true, offset: 1, limit: 2 };
      expect(queryChanges(exported, query)).toEqual(served(await data.compareChanges(request, query)));
      expect(queryChanges(exported, query).items).toHaveLength(2);
    } finally {
      await data.close();
    }
  });

  it("holds the queue as the run left it (no runner recorded one in the fixture)", () => {
    expect(readData<QueueAnswer>(staticKeys.queue(fixture.runId))).toMatchObject({ status: "none", invocation: null });
  });
});
