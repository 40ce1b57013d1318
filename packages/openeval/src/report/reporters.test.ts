import { describe, expect, it, vi } from "vitest";
import type { RunnerEvent, RunSummary } from "../summary/index.ts";
import { createJsonReporter } from "./json-reporter.ts";
import { createPlainReporter } from "./plain-reporter.ts";
import { formatSummary } from "./summary-table.ts";
import { formatMarkdownSummary } from "./markdown-summary.ts";
import { formatJunit } from "./junit.ts";
import { createTtyProgress, estimateRemainingMs } from "./tty-progress.ts";
import { aggregateScores, decideVerdict, type CriterionRef } from "../results/index.ts";
import type { SlotObservation } from "../results/index.ts";
import { findAll, parseXml, type XmlElement } from "../../../../test/helpers/xml.ts";
import { check, evalRun, judgeRun, runStarted, slot } from "./fixtures/runner-events.ts";
import { EMPTY_SUMMARY } from "./fixtures/empty-summary.ts";

describe("reporters", () => {
  it("plain lines say what finished, how, and how long it took", () => {
    const lines: string[] = [];
    const report = createPlainReporter((line) => lines.push(line));
    report({ type: "candidate.finished", slot, evalRun, outcome: "completed" });
    report({ type: "judge.finished", slot, judgeRun });
    report({
      type: "candidate.finished",
      slot,
      evalRun: { ...evalRun, state: "failed", infrastructureError: true, error: "provider down" },
      outcome: "infrastructure error",
    });
    report({
      type: "candidate.finished",
      slot,
      evalRun: { ...evalRun, state: "timed_out", infrastructureError: true, error: "Wall-clock timeout" },
      outcome: "infrastructure error",
    });
    report({
      type: "candidate.finished",
      slot,
      evalRun: {
        ...evalRun,
        state: "failed",
        infrastructureError: true,
        setupError: true,
        error: "Setup error of p/m",
      },
      outcome: "setup error",
    });
    report({
      type: "check.finished",
      slot,
      evalRunId: "eval_1",
      check: { ...check, outcome: "continue", reason: "ok: still open" },
    });
    report({ type: "check.finished", slot, evalRunId: "eval_1", check: { ...check, check: 2 } });
    report({ type: "notice", message: "earlyStop is off for e" });
    report({
      type: "judge.finished",
      slot,
      judgeRun: { ...judgeRun, state: "timed_out", scores: null, error: "Wall-clock timeout of 1 ms reached" },
    });
    expect(lines).toEqual([
      "candidate e × p/m #1: completed in 2.5 s, eval run eval_1",
      "judge     e × p/m #1: ok=1 maybe=unresolved",
      "candidate e × p/m #1: infrastructure error in 2.5 s, eval run eval_1 (provider down)",
      // A timeout before the first completed step reads as what the summary calls it, not "timed_out".
      "candidate e × p/m #1: infrastructure error in 2.5 s, eval run eval_1 (Wall-clock timeout)",
      "candidate e × p/m #1: setup error in 2.5 s, eval run eval_1 (Setup error of p/m)",
      "check     e × p/m #1, check 1: continue: ok: still open",
      "check     e × p/m #1, check 2: every criterion decided; stopping the candidate",
      "earlyStop is off for e",
      // A state in words, never the enum.
      "judge     e × p/m #1: timed out: Wall-clock timeout of 1 ms reached",
    ]);
  });

  it("the TTY status line shows done/running/queued, spend, elapsed and ETA, redrawn in place", () => {
    let output = "";
    let now = 0;
    const report = createTtyProgress({ write: (text: string) => (output += text) }, () => now);
    report({ type: "queue.changed", running: 2, queued: 3, done: 0, runningSince: [0, 0], doneMs: 0 });
    now = 10_000;
    report({ type: "candidate.finished", slot, evalRun, outcome: "completed" });
    report({ type: "queue.changed", running: 1, queued: 3, done: 1, runningSince: [0], doneMs: 10_000 });
    const last = output.split("\r\x1b[2K").at(-1);
    // 3 queued × 10 s; the running item has already run its 10 s.
    expect(last).toBe("[1/5] running 1, queued 3 · spent $0.1250 · 10s elapsed · ETA 30s");
    // Judges and earlyStop checks spend too; a decided check's judge run is that check, counted once.
    report({ type: "judge.finished", slot, judgeRun: { ...judgeRun, costUSD: 0.05 } });
    report({ type: "check.finished", slot, evalRunId: "eval_1", check: { ...check, costUSD: 0.02 } });
    report({
      type: "judge.finished",
      slot,
      judgeRun: { ...judgeRun, costUSD: 0.02, decidedEarly: { check: 1, checkpoint: { directory: "c", hash: "h" } } },
    });
    expect(output.split("\r\x1b[2K").at(-1)).toContain("spent $0.1950");
    expect(output).toContain("candidate e × p/m #1: completed in 2.5 s, eval run eval_1\n");
    report({ type: "run.finished", runId: "r", directory: "/d", summary: {} as RunSummary });
  });

  it("TTY status: cut to the terminal width, and redrawn every second without events until the run finishes", () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      let output = "";
      const report = createTtyProgress({ columns: 40, write: (text: string) => (output += text) }, () => now);
      report({ type: "queue.changed", running: 1, queued: 0, done: 0, runningSince: [0], doneMs: 0 });
      const statuses = () => output.split("\r\x1b[2K").filter(Boolean);
      expect(statuses().at(-1)).toBe("[0/1] running 1, queued 0 · spent $0.0…");
      expect([...statuses().at(-1)!].length).toBe(39);
      now = 65_000;
      vi.advanceTimersByTime(1_000);
      expect(statuses()).toHaveLength(2); // a redraw with no event
      now = 66_000;
      vi.advanceTimersByTime(1_000);
      expect(statuses()).toHaveLength(3);
      report({ type: "run.finished", runId: "r", directory: "/d", summary: {} as RunSummary });
      const after = output.length;
      vi.advanceTimersByTime(5_000);
      expect(output.length).toBe(after);
      // A wide terminal shows the whole line, elapsed time moving.
      output = "";
      const wide = createTtyProgress({ columns: 200, write: (text: string) => (output += text) }, () => now);
      wide({ type: "queue.changed", running: 1, queued: 0, done: 0, runningSince: [now], doneMs: 0 });
      now = 131_000;
      vi.advanceTimersByTime(1_000);
      expect(statuses().at(-1)).toBe("[0/1] running 1, queued 0 · spent $0.0000 · 1m05s elapsed · ETA —");
      wide({ type: "run.finished", runId: "r", directory: "/d", summary: {} as RunSummary });
    } finally {
      vi.useRealTimers();
    }
  });

  it("TTY status on a terminal that reports 0 columns: the whole line, cut at 80 columns", () => {
    let output = "";
    const report = createTtyProgress({ columns: 0, write: (text: string) => (output += text) }, () => 0);
    report({ type: "queue.changed", running: 1, queued: 2, done: 0, runningSince: [0], doneMs: 0 });
    expect(output.split("\r\x1b[2K").at(-1)).toBe("[0/3] running 1, queued 2 · spent $0.0000 · 0s elapsed · ETA —");
    report({ type: "run.finished", runId: "r", directory: "/d", summary: {} as RunSummary });
  });

  it("the ETA counts the time running items have already run", () => {
    // Two lanes, items of 60 s: two done by 60 s, two more started then; at 90 s they are half done.
    const state = { running: 2, queued: 8, done: 2, runningSince: [60_000, 60_000], doneMs: 120_000 };
    expect(estimateRemainingMs(state, 90_000)).toBe(270_000); // 30 s for the running pair, then 4 × 60 s
    expect(estimateRemainingMs(state, 60_000)).toBe(300_000);
    // One that has run past the mean is taken as about to finish.
    expect(estimateRemainingMs({ ...state, queued: 0, runningSince: [0, 60_000] }, 90_000)).toBe(15_000);
    expect(estimateRemainingMs({ ...state, done: 0, doneMs: 0 }, 90_000)).toBeNull();
    let output = "";
    const report = createTtyProgress({ columns: 200, write: (text: string) => (output += text) }, () => 90_000);
    report({ type: "queue.changed", ...state });
    expect(output.split("\r\x1b[2K").at(-1)).toContain("ETA 4m30s");
    report({ type: "run.finished", runId: "r", directory: "/d", summary: {} as RunSummary });
  });

  it("--json writes one parseable event per line, with plans abbreviated", () => {
    const lines: string[] = [];
    const report = createJsonReporter((line) => lines.push(line));
    const events: RunnerEvent[] = [runStarted, { type: "candidate.finished", slot, evalRun, outcome: "completed" }];
    events.forEach(report);
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(["run.started", "candidate.finished"]);
    expect(JSON.parse(lines[0]!).slots).toEqual([{ ...slot, action: "candidate", reason: "New" }]);
    expect(JSON.parse(lines[1]!).outcome).toBe("completed");
  });

  it("the summary table shows bounds for incomplete scores, CIs, labels controls and unsandboxed models, the verdict, and what is open", () => {
    const costTime = {
      executed: 2,
      totalUSD: 0,
      meanUSD: 0,
      unknownCost: 0,
      medianElapsedMs: 2000,
      p95ElapsedMs: 2000,
      unknownElapsed: 0,
    };
    const summary: RunSummary = {
      runId: "r",
      directory: "/results/r",
      complete: false,
      outOfScope: 2,
      criteria: {},
      categories: [],
      comparisons: [],
      variantComparisons: [],
      fingerprints: [],
      models: [
        {
          model: "control/positive",
          control: true,
          unsandboxed: false,
          failed: 0,
          score: { value: 100, lower: 100, upper: 100 },
          evals: [],
          slots: 2,
          judged: 2,
          costUSD: 0.01,
          judgeCostUSD: 0.002,
          totalCostUSD: 0.012,
          elapsedMs: 4000,
          modelActiveMs: 1500,
          interval: { model: "control/positive", interval: { lower: 100, upper: 100 }, reason: null },
          passK: null,
          costTime: { model: "control/positive", ...costTime },
        },
        {
          model: "p/m",
          control: false,
          unsandboxed: true,
          failed: 0,
          score: { value: null, lower: 25, upper: 75 },
          evals: [],
          slots: 2,
          judged: 1,
          costUSD: null,
          judgeCostUSD: null,
          totalCostUSD: null,
          elapsedMs: null,
          modelActiveMs: null,
          interval: { model: "p/m", interval: null, reason: "unresolved" },
          passK: null,
          costTime: { model: "p/m", ...costTime },
        },
      ],
      verdict: {
        status: "fail",
        complete: false,
        unjudged: ["e/p/m#1"],
        enabled: ["code-judge", "gates"],
        gates: [],
        gated: true,
        contributors: [
          {
            id: "code-judge",
            status: "fail",
            word: "fail",
            failing: ["e/p/m/ok"],
            unresolved: [],
            checked: 1,
            detail: "",
          },
          {
            id: "llm-judge",
            status: "skipped",
            word: "skipped",
            failing: [],
            unresolved: [],
            checked: 0,
            detail: "not enabled",
          },
          {
            id: "gates",
            status: "pass",
            word: "nothing gated",
            failing: [],
            unresolved: [],
            checked: 0,
            detail: "no gates configured",
          },
          {
            id: "regression",
            status: "skipped",
            word: "skipped",
            failing: [],
            unresolved: [],
            checked: 0,
            detail: "not enabled",
          },
        ],
      },
      open: [{ slot, action: "failed", reason: "Infrastructure error", evalRunId: "eval_1" }],
      inputChanges: [
        {
          at: "2026-12-01T10:00:00.000Z",
          changes: [
            { scope: "benchmark", path: "evals/e/REFERENCE_FIX.md", change: "modified" },
            { scope: "harness", path: "src/judge/code-worker.ts", change: "modified" },
          ],
        },
      ],
      integrity: [
        {
          kind: "judge-run",
          id: "judge_x",
          message: "judge run judge_x has no integrity hash: the row was inserted by hand or by an older openeval",
        },
      ],
      settingsNote: null,
      warnings: ["e × p/m #1 [eval run eval_1] compacted its context 7 times"],
    };
    const text = formatSummary(summary);
    expect(text).toContain(
      "1 record failed the integrity check (not scored; run openeval verify for the whole run):\n  judge run judge_x has no integrity hash",
    );
    expect(text).toContain(
      "Changed while the run's candidates ran (2026-12-01T10:00:00.000Z; graded with the frozen inputs): evals/e/REFERENCE_FIX.md (modified), harness src/judge/code-worker.ts (modified)",
    );
    expect(text).toMatch(/control\/positive \(control\)\s+100\.0%\s+100\.0–100\.0/);
    expect(text).toContain("[25.0–75.0]% (incomplete)");
    expect(text).toMatch(/^p\/m \(unsandboxed\)\s/m);
    expect(text).toContain("(unsandboxed): ran on this machine as the current user (--isolation process)");
    expect(
      formatSummary({ ...summary, models: summary.models.map((model) => ({ ...model, unsandboxed: false })) }),
    ).not.toContain("unsandboxed");
    expect(text).toContain("Verdict: fail (some slots are not judged, and no result of theirs can undo the failure)");
    expect(text).toContain("code-judge fail — failing: e/p/m/ok\n");
    expect(text).toContain("llm-judge  skipped (not enabled)");
    // A contributor that checked nothing says so beside its pass.
    expect(text).toContain("gates      nothing gated (no gates configured)");
    expect(text).toContain("1 slot not finished:\n  e × p/m #1 [eval run eval_1]: failed — Infrastructure error");
    expect(text).toContain(
      `Filtered: this summary covers ${summary.fingerprints.length} of ${summary.fingerprints.length + 2} slots (--only-*); a filtered run cannot become a baseline.`,
    );
    expect(formatMarkdownSummary(summary)).toContain("Filtered: this summary covers");
    expect(text).toContain("Warnings:\n  e × p/m #1 [eval run eval_1] compacted its context 7 times");
    // p/m ran twice and recorded no cost: unknown, not $0 and not a dash.
    expect(text).toMatch(/p\/m \(unsandboxed\)\s+\[25\.0–75\.0\]% \(incomplete\).*unknown/);
    // Candidate and judge spend apart and together; time is the union of active intervals.
    expect(text).toContain("cost (candidate + judge = total)");
    expect(text).toMatch(/control\/positive \(control\).*\$0\.0100 \+ \$0\.0020 = \$0\.0120\s+1\.5 s \/ 4\.0 s/);
    expect(text).toContain("time (model active / wall)");
    const judgeUnknown = { ...summary.models[0]!, judgeCostUSD: null, totalCostUSD: 0.01 };
    expect(formatSummary({ ...summary, models: [judgeUnknown] })).toContain("$0.0100 + unknown = ≥ $0.0100");
  });

  it("per-category scores (bounds, 95% CI) show in the summary table and as JUnit suite properties, only when there are categories", () => {
    const costTime = {
      executed: 1,
      totalUSD: 0,
      meanUSD: 0,
      unknownCost: 0,
      medianElapsedMs: 1,
      p95ElapsedMs: 1,
      unknownElapsed: 0,
    };
    const summary: RunSummary = {
      runId: "r",
      directory: "/results/r",
      complete: false,
      outOfScope: 0,
      criteria: {},
      comparisons: [],
      variantComparisons: [],
      fingerprints: [],
      open: [],
      warnings: [],
      inputChanges: [],
      integrity: [],
      settingsNote: null,
      verdict: { status: "pass", complete: false, unjudged: [], enabled: [], gates: [], contributors: [], gated: true },
      models: [
        {
          model: "p/m",
          control: false,
          unsandboxed: false,
          failed: 0,
          score: { value: 50, lower: 50, upper: 50 },
          evals: [
            { evalId: "e", value: 0.5, lower: 0.5, upper: 0.5, criteria: { fast: { value: 1, lower: 1, upper: 1 } } },
          ],
          slots: 2,
          judged: 2,
          costUSD: 0,
          judgeCostUSD: 0,
          totalCostUSD: 0,
          elapsedMs: 1,
          modelActiveMs: null,
          interval: { model: "p/m", interval: null, reason: "few" },
          passK: null,
          costTime: { model: "p/m", ...costTime },
        },
      ],
      categories: [
        {
          category: "speed",
          criteria: 2,
          evals: 1,
          models: [
            {
              model: "p/m",
              score: { value: 75, lower: 75, upper: 75 },
              interval: { lower: 50, upper: 100 },
              reason: null,
            },
          ],
        },
        {
          category: "cost control",
          criteria: 1,
          evals: 1,
          models: [
            { model: "p/m", score: { value: null, lower: 0, upper: 100 }, interval: null, reason: "unresolved" },
          ],
        },
      ],
    };
    const text = formatSummary(summary);
    expect(text).toContain("By category:");
    expect(text).toMatch(/^speed\s+p\/m\s+75\.0%\s+50\.0–100\.0\s+2 in 1 eval$/m);
    expect(text).toMatch(/^cost control\s+p\/m\s+\[0\.0–100\.0\]% \(incomplete\)\s+—\s+1 in 1 eval$/m);
    expect(formatSummary({ ...summary, categories: [] })).not.toContain("By category");
    expect(formatMarkdownSummary(summary)).toContain(
      "**By category**\n\n| category | model | score | 95% CI | criteria |\n| --- | --- | --- | --- | --- |\n| speed | p/m | 75.0% | 50.0–100.0 | 2 in 1 eval |",
    );
    expect(formatMarkdownSummary({ ...summary, categories: [] })).not.toContain("By category");
    const junit = formatJunit(summary);
    expect(junit).toContain('<property name="category.speed.score" value="75.0"/>');
    expect(junit).toContain('<property name="category.speed.ci" value="50.0–100.0"/>');
    expect(junit).toContain('<property name="category.cost control.score" value="unresolved"/>');
    expect(junit).toContain('<property name="category.cost control.upper" value="100.0"/>');
    expect(junit).toMatch(
      /<testsuite name="p\/m" [^>]*>\n    <properties>\n      <property name="category.speed.score"/,
    );
    expect(formatJunit({ ...summary, categories: [] })).not.toContain('"category.');
  });

  it("names variant rows model [variant] and compares each variant with current, per eval and per criterion", () => {
    const costTime = {
      executed: 1,
      totalUSD: 0.01,
      meanUSD: 0.01,
      unknownCost: 0,
      medianElapsedMs: 1000,
      p95ElapsedMs: 1000,
      unknownElapsed: 0,
    };
    const row = (variant: string | undefined, value: number) => ({
      model: "p/m",
      ...(variant ? { variant } : {}),
      control: false,
      unsandboxed: false,
      failed: 0,
      score: { value, lower: value, upper: value },
      evals: [],
      slots: 1,
      judged: 1,
      costUSD: 0.01,
      judgeCostUSD: 0,
      totalCostUSD: 0.01,
      elapsedMs: 1000,
      modelActiveMs: 400,
      interval: { model: "p/m", interval: null, reason: "few" },
      passK: null,
      costTime: { model: "p/m", ...costTime },
    });
    const change = { a: 1, b: 0.5, difference: -0.5, status: "regression" as const };
    const summary: RunSummary = {
      runId: "r",
      directory: "/results/r",
      complete: true,
      outOfScope: 0,
      criteria: {},
      categories: [],
      comparisons: [],
      fingerprints: [],
      open: [],
      warnings: [],
      inputChanges: [],
      integrity: [],
      settingsNote: null,
      verdict: { status: "pass", complete: true, unjudged: [], enabled: [], gates: [], contributors: [], gated: true },
      models: [row(undefined, 100), row("terse", 50)],
      variantComparisons: [
        {
          model: "p/m",
          variant: "terse",
          comparison: {
            a: "p/m",
            b: "p/m [terse]",
            scoreA: { value: 100, lower: 100, upper: 100 },
            scoreB: { value: 50, lower: 50, upper: 50 },
            paired: {
              meanDifference: -50,
              interval: null,
              reason: "needs ≥ 2 paired evals; 1 paired",
              pairedEvals: 1,
              excluded: [],
            },
            evals: [{ evalId: "e", ...change, criteria: [{ evalId: "e", criterionId: "ok", ...change }] }],
            counts: { regression: 1, improvement: 0, unchanged: 0, unresolved: 0, missing: 0 },
          },
        },
      ],
    };
    const text = formatSummary(summary);
    expect(text).toMatch(/^p\/m \[terse\]\s+50\.0%/m);
    expect(text).toContain(
      "p/m [terse] vs current: -50.0 points (no CI: needs ≥ 2 paired evals; 1 paired) over 1 paired eval(s); criteria: 0 improved, 1 regressed, 0 unchanged\n  per eval: e -50.0",
    );
    expect(formatMarkdownSummary(summary)).toContain("| p/m [terse] | 50.0% |");
    expect(formatMarkdownSummary(summary)).toContain("- p/m [terse] vs current: -50.0 points");
  });

  it("an undecidable verdict is headlined incomplete, never pass; a recorded-settings note is shown", () => {
    const base = EMPTY_SUMMARY;
    const verdict = {
      status: "pass" as const,
      complete: false,
      unjudged: ["e/p/m#1"],
      enabled: [],
      gates: [],
      contributors: [],
      gated: true,
    };
    const unjudged = formatSummary({
      ...base,
      complete: false,
      verdict,
      settingsNote: "benchmark.ts changed since this run",
    });
    expect(unjudged).toContain("Verdict: incomplete (some slots are not judged)");
    expect(unjudged).not.toContain("Verdict: pass");
    expect(unjudged).toContain("Note: benchmark.ts changed since this run");
    const unknown = formatSummary({
      ...base,
      complete: true,
      verdict: { ...verdict, status: "unknown", complete: true, unjudged: [] },
      settingsNote: null,
    });
    expect(unknown).toContain("Verdict: incomplete (unresolved scores or gates keep it from being decided)");
    const passing = formatSummary({
      ...base,
      complete: true,
      verdict: { ...verdict, complete: true, unjudged: [] },
      settingsNote: null,
    });
    expect(passing).toContain("Verdict: pass\n");
  });

  it("JUnit gives each criterion test case its score, threshold and status, and fails it where the verdict or its gate fails on it", () => {
    const observe = (model: string, scores: SlotObservation["scores"]): SlotObservation => ({
      evalId: "e",
      model,
      variant: "current",
      repetition: 1,
      scores,
      costUSD: 0,
      elapsedMs: 1,
      executed: true,
      fresh: false,
    });
    const criteria: Record<string, CriterionRef[]> = {
      e: [
        { id: "ok", source: "judge.ts" },
        { id: "bad", source: "judge.ts" },
        { id: "style", source: "judge.md" },
        { id: "pending", source: "judge.ts" },
      ],
    };
    const real = [observe("p/m", { ok: 1, bad: 0, style: 0.4, pending: null })];
    const control = [observe("control/negative", { ok: 0, bad: 0, style: 0, pending: 0 })];
    // llm-judge is off: the style cell can fail only through its gate (min 0.5).
    const verdict = decideVerdict({
      observations: real,
      criteria,
      gates: { criteria: { style: { min: 0.5 } } },
      enabled: ["code-judge", "gates"],
    });
    const ids = { e: ["ok", "bad", "style", "pending"] };
    const extras = (model: string) => ({
      control: model.startsWith("control/"),
      unsandboxed: false,
      failed: 0,
      interval: { model, interval: null, reason: "few" },
      passK: null,
      costTime: {
        model,
        executed: 1,
        totalUSD: 0,
        meanUSD: 0,
        unknownCost: 0,
        medianElapsedMs: 1,
        p95ElapsedMs: 1,
        unknownElapsed: 0,
      },
    });
    const summary: RunSummary = {
      runId: "r",
      directory: "/results/r",
      complete: true,
      outOfScope: 0,
      criteria: ids,
      categories: [],
      comparisons: [],
      variantComparisons: [],
      fingerprints: [],
      open: [],
      warnings: [],
      inputChanges: [],
      integrity: [],
      settingsNote: null,
      verdict,
      models: aggregateScores([...real, ...control], ids).map((model) => ({ ...model, ...extras(model.model) })),
    };
    const xml = parseXml(formatJunit(summary));
    const suite = (name: string) => findAll(xml, "testsuite").find((element) => element.attributes.name === name)!;
    const testCase = (suiteName: string, name: string) =>
      findAll(suite(suiteName), "testcase").find((element) => element.attributes.name === name)!;
    const properties = (element: XmlElement) =>
      Object.fromEntries(
        findAll(element, "property").map((property) => [property.attributes.name, property.attributes.value]),
      );
    const outcome = (element: XmlElement) =>
      element.children
        .filter((child) => child.name !== "properties")
        .map((child) => [child.name, child.attributes.message]);

    expect(properties(testCase("p/m", "ok"))).toEqual({ score: "1.000", threshold: "1", status: "pass" });
    expect(outcome(testCase("p/m", "ok"))).toEqual([]);
    expect(properties(testCase("p/m", "bad"))).toEqual({ score: "0.000", threshold: "1", status: "fail" });
    expect(outcome(testCase("p/m", "bad"))).toEqual([["failure", "bad scored 0.000, threshold 1: fails code-judge"]]);
    expect(properties(testCase("p/m", "style"))).toEqual({ score: "0.400", threshold: "0.5", status: "fail" });
    expect(outcome(testCase("p/m", "style"))).toEqual([
      ["failure", "style scored 0.400, threshold 0.5: fails the criteria.style.min gate"],
    ]);
    expect(properties(testCase("p/m", "pending"))).toEqual({
      score: "unresolved",
      "score.lower": "0.000",
      "score.upper": "1.000",
      threshold: "1",
      status: "unknown",
    });
    expect(outcome(testCase("p/m", "pending"))).toEqual([["skipped", "pending is unresolved [0.000, 1.000]"]]);
    expect(suite("p/m").attributes).toMatchObject({ tests: "4", failures: "2", skipped: "1" });
    // A negative control's 0% shows in its properties; controls never enter the verdict, so they fail no build.
    expect(properties(testCase("control/negative (control)", "ok"))).toEqual({
      score: "0.000",
      threshold: "1",
      status: "fail",
    });
    expect(suite("control/negative (control)").attributes).toMatchObject({ tests: "4", failures: "0" });
    expect(
      properties(suite("control/negative (control)").children.find((child) => child.name === "properties")!),
    ).toEqual({ control: "a scripted control: never enters the verdict" });
    // The verdict's own suite: the verdict in the words every report uses, and each contributor.
    expect(outcome(testCase("openeval verdict", "verdict"))).toEqual([["failure", "fail"]]);
    expect(outcome(testCase("openeval verdict", "code-judge"))).toEqual([["failure", "failing: e/p/m/bad"]]);
    expect(outcome(testCase("openeval verdict", "llm-judge"))).toEqual([["skipped", "not enabled"]]);
    expect(outcome(testCase("openeval verdict", "gates"))).toEqual([["failure", "failing: criteria.style.min"]]);
  });

  it("JUnit gives an eval with cases one test case per case, with its scores, failed where regression names the case", () => {
    const observe = (caseId: string, scores: SlotObservation["scores"]): SlotObservation => ({
      evalId: "e",
      case: caseId,
      model: "p/m",
      variant: "current",
      repetition: 1,
      scores,
      costUSD: 0,
      elapsedMs: 1,
      executed: true,
      fresh: false,
    });
    const observations = [observe("late", { ok: 1 }), observe("early", { ok: 0 }), observe("open", null)];
    const ids = { e: ["ok"] };
    // The baseline had case early passing: it regressed, and its test case fails naming the regression.
    const baseline = {
      format: "openeval.baseline" as const,
      version: 1 as const,
      runId: "base",
      createdAt: "x",
      verdict: "pass" as const,
      acceptedFailing: false,
      gate: [],
      entries: [
        {
          evalId: "e",
          model: "p/m",
          candidateFingerprints: [],
          judgeFingerprints: [],
          criteria: { ok: 1 },
          cases: { late: { ok: 1 }, early: { ok: 1 } },
        },
      ],
    };
    const verdict = decideVerdict({
      observations,
      criteria: { e: [{ id: "ok", source: "judge.ts" }] },
      enabled: ["regression"],
      baseline,
    });
    const summary: RunSummary = {
      ...EMPTY_SUMMARY,
      complete: false,
      criteria: ids,
      settingsNote: null,
      verdict,
      models: aggregateScores(observations, ids).map((model) => ({
        ...model,
        control: false,
        unsandboxed: false,
        failed: 0,
        interval: { model: "p/m", interval: null, reason: "few" },
        passK: null,
        costTime: {
          model: "p/m",
          executed: 3,
          totalUSD: 0,
          meanUSD: 0,
          unknownCost: 0,
          medianElapsedMs: 1,
          p95ElapsedMs: 1,
          unknownElapsed: 0,
        },
      })),
    };
    const xml = parseXml(formatJunit(summary));
    const suite = findAll(xml, "testsuite").find((element) => element.attributes.name === "p/m")!;
    const cases = findAll(suite, "testcase").filter((element) => element.attributes.name!.startsWith("case "));
    expect(cases.map((element) => [element.attributes.classname, element.attributes.name])).toEqual([
      ["p/m.e", "case late"],
      ["p/m.e", "case early"],
      ["p/m.e", "case open"],
    ]);
    const properties = (element: XmlElement) =>
      Object.fromEntries(
        findAll(element, "property").map((property) => [property.attributes.name, property.attributes.value]),
      );
    expect(properties(cases[0]!)).toEqual({ score: "1.000", "criterion.ok": "1.000" });
    expect(properties(cases[1]!)).toEqual({ score: "0.000", "criterion.ok": "0.000" });
    expect(findAll(cases[0]!, "failure")).toEqual([]);
    expect(findAll(cases[1]!, "failure").map((element) => element.attributes.message)).toEqual([
      "case early fails regression (e[early]/p/m/ok)",
    ]);
    expect(findAll(cases[2]!, "skipped").map((element) => element.attributes.message)).toEqual([
      "case open is unresolved",
    ]);
  });

  it("JUnit and Markdown word an incomplete verdict and one over nothing as the table does", () => {
    const base = { ...EMPTY_SUMMARY, settingsNote: null };
    const nothing: RunSummary = { ...base, complete: true, verdict: decideVerdict({ observations: [], criteria: {} }) };
    expect(formatSummary(nothing)).toContain(
      "Verdict: nothing gated (no real model's criterion, gate or baseline cell was there to check; controls never enter the verdict)\n",
    );
    expect(formatSummary(nothing)).toContain(
      "code-judge nothing judged (no judge.ts criterion of a real model to check)",
    );
    expect(formatMarkdownSummary(nothing)).toContain("## ➖ openeval: nothing gated (no real model's criterion");
    expect(formatMarkdownSummary(nothing)).toContain("| code-judge | nothing judged |");
    const junitCase = (name: string) =>
      findAll(parseXml(formatJunit(nothing)), "testcase").find((element) => element.attributes.name === name)!;
    expect(junitCase("code-judge").children.map((child) => child.attributes.message)).toEqual([
      "nothing judged: no judge.ts criterion of a real model to check",
    ]);
    const verdictCase = (summary: RunSummary) =>
      findAll(parseXml(formatJunit(summary)), "testcase").find((element) => element.attributes.name === "verdict")!;
    expect(
      verdictCase(nothing).children.map((child) => [child.name, child.attributes.message ?? child.attributes.name]),
    ).toEqual([
      ["properties", undefined],
      [
        "skipped",
        "nothing gated (no real model's criterion, gate or baseline cell was there to check; controls never enter the verdict)",
      ],
    ]);
    const incomplete: RunSummary = { ...base, complete: false, verdict: { ...nothing.verdict, gated: true } };
    expect(formatMarkdownSummary(incomplete)).toContain("## ⚠️ openeval: incomplete (some slots are not judged)");
    expect(verdictCase(incomplete).children.at(-1)!.attributes.message).toBe("incomplete (some slots are not judged)");
  });
  it("every report shows the integrity findings, with severity, eval run and citation; the verdict fails on integrity alone", () => {
    const key = { evalId: "fix-add", model: "p/m", variant: "current", repetition: 1 };
    const integrityFindings: RunSummary["integrityFindings"] = [
      {
        slot: key,
        control: false,
        evalRunId: "eval_1",
        judgeRunId: "judge_1",
        findings: [
          {
            kind: "protected_path_changed",
            subject: "tests/test_app.py",
            detail: "wrote tests/test_app.py, which the eval protects (tests/**)",
            citation: { kind: "tool", id: "call_7" },
            severity: "fail",
          },
          {
            kind: "network_refused",
            subject: "answers.example.invalid:443",
            detail: "tried to reach answers.example.invalid:443; the egress proxy refused it",
            citation: { kind: "egress", index: 0 },
            severity: "warn",
          },
        ],
      },
    ];
    const observations: SlotObservation[] = [
      {
        ...key,
        scores: { tests_pass: 1 },
        costUSD: 0,
        elapsedMs: 1,
        executed: true,
        fresh: true,
        integrityFindings: integrityFindings[0]!.findings,
      },
    ];
    const criteria: Record<string, CriterionRef[]> = { "fix-add": [{ id: "tests_pass", source: "judge.ts" }] };
    const verdict = decideVerdict({ observations, criteria });
    const summary: RunSummary = {
      ...EMPTY_SUMMARY,
      criteria: { "fix-add": ["tests_pass"] },
      integrityFindings,
      settingsNote: null,
      complete: true,
      verdict,
    };
    const line =
      "fix-add/p/m#1 [eval run eval_1] fail protected_path_changed tests/test_app.py: wrote tests/test_app.py, which the eval protects (tests/**) (cites tool call call_7)";
    const text = formatSummary(summary);
    expect(text).toContain(
      `Integrity: 2 findings in 1 eval run (1 failing the verdict; controls never do):\n  ${line}\n  fix-add/p/m#1 [eval run eval_1] warn network_refused answers.example.invalid:443`,
    );
    expect(text).toContain("(cites refused connection #1 of the egress log)");
    expect(text).toContain("integrity  fail — failing: fix-add/p/m#1: protected_path_changed tests/test_app.py");
    expect(text).toContain("code-judge pass");
    expect(formatMarkdownSummary(summary)).toContain(
      `<details><summary>Integrity: 2 finding(s)</summary>\n\n- ${line}\n`,
    );
    const integrityCase = findAll(parseXml(formatJunit(summary)), "testcase").find(
      (element) => element.attributes.name === "integrity",
    )!;
    const properties = findAll(integrityCase, "property").map((property) => [
      property.attributes.name,
      property.attributes.value,
    ]);
    expect(properties).toContainEqual(["finding.1", line]);
    expect(integrityCase.children.at(-1)!.attributes.message).toBe(
      "failing: fix-add/p/m#1: protected_path_changed tests/test_app.py",
    );
  });

  it("every report names the unreliable criteria with their α, and says how many decisions became advisory", () => {
    const key = { evalId: "notes", model: "p/m", variant: "current", repetition: 1 };
    const observations: SlotObservation[] = [
      { ...key, scores: { clear: 1, tone: 0 }, costUSD: 0, elapsedMs: 1, executed: true, fresh: true },
    ];
    const criteria: Record<string, CriterionRef[]> = {
      notes: [
        { id: "clear", source: "judge.md" },
        { id: "tone", source: "judge.md" },
      ],
    };
    const agreement: RunSummary["agreement"] = [
      {
        evalId: "notes",
        criterionId: "clear",
        alpha: 1,
        interval: { lower: 1, upper: 1 },
        units: 4,
        values: 8,
        level: "nominal",
        judges: ["control/judge", "control/judge#harsh"],
        unreliable: false,
      },
      {
        evalId: "notes",
        criterionId: "tone",
        alpha: -0.75,
        interval: { lower: -1, upper: -0.5 },
        units: 4,
        values: 8,
        level: "nominal",
        judges: ["control/judge", "control/judge#harsh"],
        unreliable: true,
      },
    ];
    const verdict = decideVerdict({ observations, criteria, unreliable: [{ evalId: "notes", criterionId: "tone" }] });
    const summary: RunSummary = {
      ...EMPTY_SUMMARY,
      criteria: { notes: ["clear", "tone"] },
      agreement,
      settingsNote: null,
      complete: true,
      verdict,
    };
    const line =
      "notes/tone α -0.75 [-1, -0.5] over 4 recording(s), nominal, judges control/judge, control/judge#harsh — unreliable";
    const effect =
      "Unreliable criteria (notes/tone) are advisory: that changed 0 gate decision(s), 1 criterion cell(s) and 0 regression(s) from fail to advisory.";
    const text = formatSummary(summary);
    expect(text).toContain(`Judge agreement (Krippendorff's α): 2 criterion(s) judged by a panel, 1 unreliable:`);
    expect(text).toContain(`  ${line}\n  ${effect}`);
    expect(text).toContain("llm-judge  pass");
    const markdown = formatMarkdownSummary(summary);
    expect(markdown).toContain(`**${effect}**`);
    expect(markdown).toContain(`- ${line}`);
    const llmCase = findAll(parseXml(formatJunit(summary)), "testcase").find(
      (element) => element.attributes.name === "llm-judge",
    )!;
    const properties = findAll(llmCase, "property").map((property) => [
      property.attributes.name,
      property.attributes.value,
    ]);
    expect(properties).toEqual([
      ["detail", "1 of 2 judge.md criterion cell(s) pass; 1 advisory failure(s) of unreliable criteria"],
      ["advisory.1", "notes/p/m/tone"],
      ["unreliable.1", line],
    ]);
  });
});
