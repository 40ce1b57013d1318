import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { ResultsStore, type IntegrityFinding } from "../records/index.ts";
import { recordVerdictSettings } from "../results/index.ts";
import type { EvalRunDetail, MatrixRow } from "./api-types.ts";
import { exportRun } from "./export-run.ts";
import { flagFindings, mergeFlags, toFindingViews } from "./integrity-findings.ts";
import { RunCatalog } from "./run-catalog.ts";
import { STATIC_CALLBACK, staticDataFile, staticKeys } from "./static-files.ts";
import { ViewerData } from "./viewer-data.ts";
import { EGRESS_REFUSED, writeViewerFixture, type ViewerFixture } from "./fixtures/viewer-run.ts";
import { recordedBenchmark, RUN_ID } from "../../../../test/helpers/recorded-benchmark.ts";
import { readRunIndex } from "./run-index.ts";
import { SummaryReader } from "./run-summary.ts";

let fixture: ViewerFixture;
let data: ViewerData;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), {
    evals: 2,
    models: ["provider/alpha", "control/negative"],
    repetitions: 2,
    integrityFindings: true,
  });
  data = new ViewerData(RunCatalog.open({ run: fixture.runDirectory, resultsRoot: "unused" }));
});
afterAll(() => data.close());

const flagged = () => fixture.evalRuns[0]!;

describe("integrity flags on the matrix", () => {
  it("flag the cell whose slot's judgment has findings, with their count and worst severity, and that slot alone", () => {
    const [first, second] = data.matrix(fixture.runId, 0, 10)!.items;
    const [alpha, negative] = first!.cells;
    // Two protected paths changed (fail by default), a refused connection and an answer-key probe (warn).
    expect(alpha!.integrity).toEqual({ findings: 4, severity: "fail" });
    expect(alpha!.slots.map((slot) => [slot.repetition, slot.integrity])).toEqual([
      [1, { findings: 4, severity: "fail" }],
      [2, null],
    ]);
    expect(alpha!.slots[0]!.evalRunId).toBe(flagged().id);
    expect(negative!.integrity).toBeNull();
    expect(second!.cells.map((cell) => cell.integrity)).toEqual([null, null]);
  });

  it("add up several slots' flags, failing when one fails; no findings is no flag", () => {
    const finding = (kind: IntegrityFinding["kind"]): IntegrityFinding => ({
      kind,
      subject: "s",
      detail: "d",
      citation: { kind: "egress", index: 0 },
    });
    const warn = flagFindings([finding("read_outside_workspace")], undefined);
    expect(warn).toEqual({ findings: 1, severity: "warn" });
    expect(flagFindings([], undefined)).toBeNull();
    expect(flagFindings(undefined, undefined)).toBeNull();
    expect(mergeFlags([warn, null, warn])).toEqual({ findings: 2, severity: "warn" });
    expect(mergeFlags([warn, flagFindings([finding("checker_tampering")], undefined)])).toEqual({
      findings: 2,
      severity: "fail",
    });
    expect(mergeFlags([null, null])).toBeNull();
  });
});

describe("the eval-run page's integrity findings", () => {
  it("carry each finding's severity and where its citation leads: the tool call's step, the diff entry, the refusal", async () => {
    const detail = (await data.evalRun(fixture.runId, flagged().id))!;
    expect(detail.evalRun.egressRefused).toEqual(EGRESS_REFUSED);
    expect(detail.integrity).toMatchObject({
      judgeRunId: fixture.judgeRuns[0]!.id,
      flag: { findings: 4, severity: "fail" },
    });
    // Failing findings first; the transcript's step for a tool call has the call's id as its data-id.
    expect(detail.integrity!.findings.map(({ kind, severity, target }) => ({ kind, severity, target }))).toEqual([
      {
        kind: "protected_path_changed",
        severity: "fail",
        target: { kind: "tool", focus: "tool_2", sessionID: null, tool: "edit" },
      },
      { kind: "protected_path_changed", severity: "fail", target: { kind: "file", path: ".env", status: "added" } },
      { kind: "network_refused", severity: "warn", target: { kind: "egress", index: 0, host: "example.com:443" } },
      {
        kind: "answer_key_probe",
        severity: "warn",
        target: { kind: "tool", focus: "tool_3", sessionID: null, tool: "bash" },
      },
    ]);
    expect(detail.integrity!.findings[0]).toMatchObject({
      subject: "slugify.js",
      detail: "changed slugify.js, which the eval protects (slugify.js)",
      citation: { kind: "tool", id: "tool_2" },
    });
    // Each tool target is a step the transcript holds.
    for (const finding of detail.integrity!.findings.filter((entry) => entry.target?.kind === "tool")) {
      const focus = (finding.target as { focus: string }).focus;
      expect(await data.locate(fixture.runId, flagged().id, focus), focus).toMatchObject({ partID: focus });
    }
  });

  it("say a judgment that found nothing with no flag and no findings, and one without the check with null", async () => {
    const clean = (await data.evalRun(fixture.runId, fixture.evalRuns[1]!.id))!;
    expect(clean.integrity).toEqual({ judgeRunId: fixture.judgeRuns[1]!.id, flag: null, findings: [] });
    const older = await writeViewerFixture(await makeTempDir(), {
      evals: 1,
      models: ["provider/alpha"],
      repetitions: 1,
    });
    const olderData = new ViewerData(RunCatalog.open({ run: older.runDirectory, resultsRoot: "unused" }));
    try {
      expect((await olderData.evalRun(older.runId, older.evalRuns[0]!.id))!.integrity).toBeNull();
      expect(olderData.matrix(older.runId, 0, 1)!.items[0]!.cells[0]!.integrity).toBeNull();
    } finally {
      await olderData.close();
    }
  });

  it("leave a citation the recording does not hold without a target", () => {
    const cited = (citation: IntegrityFinding["citation"]): IntegrityFinding => ({
      kind: "checker_tampering",
      subject: "s",
      detail: "d",
      citation,
    });
    const views = toFindingViews(
      [
        cited({ kind: "tool", id: "tool_gone" }),
        cited({ kind: "file", path: "unchanged.txt", change: "modified" }),
        cited({ kind: "egress", index: 2 }),
        cited({ kind: "egress", index: 1 }),
      ],
      undefined,
      { tools: [], diff: [], egressRefused: EGRESS_REFUSED },
    );
    expect(views.map((view) => view.target)).toEqual([null, null, null, { kind: "egress", index: 1, host: null }]);
  });

  it("give each finding the severity benchmark.ts `integrity` recorded with the run gives its kind", async () => {
    const other = await writeViewerFixture(await makeTempDir(), {
      evals: 1,
      models: ["provider/alpha"],
      repetitions: 1,
      integrityFindings: true,
    });
    const store = ResultsStore.open(other.runDirectory);
    recordVerdictSettings(store, {
      gates: null,
      configured: null,
      selection: {},
      integrity: { warn: ["protected_path_changed"], fail: ["network_refused"] },
      judge: { model: null, timeoutMs: 600_000, maxCostUSD: null },
      candidate: { timeoutMs: 600_000, maxCostUSD: null, providersFingerprint: "p" },
      fingerprint: "f",
    });
    store.close();
    const otherData = new ViewerData(RunCatalog.open({ run: other.runDirectory, resultsRoot: "unused" }));
    try {
      const detail = (await otherData.evalRun(other.runId, other.evalRuns[0]!.id))!;
      expect(detail.integrity!.findings.map((finding) => [finding.kind, finding.severity])).toEqual([
        ["network_refused", "fail"],
        ["protected_path_changed", "warn"],
        ["answer_key_probe", "warn"],
        ["protected_path_changed", "warn"],
      ]);
      expect(otherData.matrix(other.runId, 0, 1)!.items[0]!.cells[0]!.integrity).toEqual({
        findings: 4,
        severity: "fail",
      });
    } finally {
      await otherData.close();
    }
  });
});

describe("the leaderboard's verdict", () => {
  it("lists the integrity contributor, and a failing finding fails the model it names while a warning does not", async () => {
    const protectedPath: IntegrityFinding = {
      kind: "protected_path_changed",
      subject: "tests/test_answer.py",
      detail: "deleted tests/test_answer.py, which the eval protects (tests/**)",
      citation: { kind: "file", path: "tests/test_answer.py", change: "deleted" },
    };
    const probe: IntegrityFinding = { ...protectedPath, kind: "answer_key_probe", subject: "judge.ts" };
    const directory = await recordedBenchmark(
      ["p/cheat", "p/curious"],
      () => 1,
      () => false,
      (repetition, model) => (repetition === 1 ? [model === "p/cheat" ? protectedPath : probe] : []),
    );
    const overview = await new SummaryReader().overview(readRunIndex(join(directory, "results", RUN_ID)));
    const integrity = overview.verdict!.contributors.find((contributor) => contributor.id === "integrity")!;
    expect(integrity).toMatchObject({
      word: "fail",
      failing: ["answer/p/cheat#1: protected_path_changed tests/test_answer.py"],
    });
    expect(overview.verdictWords?.headline).toBe("fail");
    expect(overview.leaderboard.map((row) => [row.candidate, row.verdict?.headline])).toEqual([
      ["p/cheat", "fail"],
      ["p/curious", "pass"],
    ]);
  });
});

describe("a static export", () => {
  it("holds the matrix's flags and the eval-run page's findings with their targets and refused connections", async () => {
    const result = await exportRun({ run: fixture.runDirectory, output: join(await makeTempDir(), "export") });
    const readData = (key: string): unknown => {
      const text = readFileSync(join(result.directory, staticDataFile(key)), "utf8");
      return JSON.parse(text.slice(`${STATIC_CALLBACK}(${JSON.stringify(key)},`.length, text.lastIndexOf(");")));
    };
    const matrix = readData(staticKeys.matrix(fixture.runId)) as { rows: MatrixRow[] };
    expect(matrix.rows[0]!.cells[0]!.integrity).toEqual({ findings: 4, severity: "fail" });
    expect(matrix.rows[0]!.cells[0]!.slots[0]!.integrity).toEqual({ findings: 4, severity: "fail" });
    const detail = readData(staticKeys.evalRun(fixture.runId, flagged().id)) as EvalRunDetail;
    expect(detail.evalRun.egressRefused).toEqual(EGRESS_REFUSED);
    expect(detail.integrity).toEqual((await data.evalRun(fixture.runId, flagged().id))!.integrity);
    // The cited diff entry is there, its contents left out as every workspace file's are.
    expect(detail.diff.map((file) => file.path)).toContain(".env");
  });
});
