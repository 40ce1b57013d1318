// Measurement 1: harness overhead per eval run. The same scripted session (exact-answer × control/positive, one
// text turn) run bare (isolated as the harness does, spawn → exit) and through runBenchmark (call → return), interleaved.
import { join } from "node:path";
import { startControlServer } from "@openeval/control-model";
import { loadBenchmark, runBenchmark, type RunnerEvent } from "../packages/openeval/src/index.ts";
import { resolveOpenCodeBinary } from "../packages/openeval/src/opencode/opencode-command.ts";
import { runBareOpenCode, type BareRunResult } from "./lib/bare-opencode.ts";
import { withOtherLoad } from "./lib/cpu.ts";
import { writeExactAnswerBenchmark } from "./lib/fixtures.ts";
import { median, now, round, summarize, type Summary } from "./lib/stats.ts";
import { seconds, type Section } from "./lib/table.ts";
import { withTempDir } from "./lib/temp.ts";

/** Where one harness run's wall time went, from the runner's events (ms). */
export interface HarnessPhases {
  /** Call → run.started: load benchmark.ts and evals (bundles judge.ts), open the store, recover, plan. */
  setup: number;
  /** run.started → candidate.started: hash the sources, freeze the evals and the code-judge worker (a copy of the
   * cached bundle, ~1 ms; building it was ~70–100 ms), start the control server (milliseconds), queue the work. */
  startup: number;
  /** candidate.started → candidate.finished. */
  candidate: number;
  /**
   * The OpenCode process inside the candidate (EvalRun.elapsedMs). It runs from runOpenCode's start, so besides the
   * process it holds ~5–25 ms of isolation set-up before the spawn and ~15–20 ms after the exit (the stray sweep over
   * /proc, the database checks): measured 2026-12-03.
   */
  candidateOpenCode: number;
  /** Candidate minus OpenCode: seed the git workspace, snapshots, archive the db, build the session exports, extract, write. */
  candidateRecording: number;
  /** judge.started → judge.finished: bundle frozen, `bun` worker process, normalize, save. */
  judge: number;
  /** judge.finished → return, plus the gap between candidate and judge: summary, stop the control server, close. */
  finish: number;
}

export interface HarnessOverheadResult {
  repetitions: number;
  samples: {
    bareMs: number[];
    harnessMs: number[];
    phases: HarnessPhases[];
    binaryStartMs: number[];
    exportMs: number[];
    /** What the rest of the machine ran during each side of each pair, in cores (see withOtherLoad). */
    bareOtherCores: number[];
    harnessOtherCores: number[];
  };
  summary: {
    bare: Summary;
    harness: Summary;
    overheadSeconds: number;
    ratio: number;
    /**
     * Medians of the per-pair differences (ms): harness − bare, and the harness's OpenCode process − bare. A pair runs
     * back to back, so it shares most of the other load that moves single samples by seconds on a busy machine. And
     * the median of the pairs' ratios (harness ÷ bare): the medians' ratio takes its two medians from different pairs.
     */
    paired: { overheadMs: number; openCodeMs: number; ratio: number };
    /** Median other load during the samples, in cores: above ~0.2 a sample can move by more than the overhead measured. */
    otherCores: { bare: number; harness: number };
    phases: HarnessPhases;
    /** `opencode --version`: one start of the 185 MB OpenCode binary, for reference. */
    binaryStart: Summary;
    /** `opencode export <session>` after a bare run: what each session cost the harness before it built exports itself. */
    export: Summary;
  };
}

const EVAL_ID = "exact-answer";

export async function measureHarnessOverhead(options: { repetitions: number }): Promise<HarnessOverheadResult> {
  return withTempDir("overhead", async (root) => {
    const benchmarkDir = join(root, "benchmark");
    await writeExactAnswerBenchmark(benchmarkDir, { models: ["control/positive"], repetitions: 1 });
    const evaluation = (await loadBenchmark(benchmarkDir)).evals[0]!;
    const server = await startControlServer({ controls: { [EVAL_ID]: evaluation.controls } });
    const samples: HarnessOverheadResult["samples"] = {
      bareMs: [],
      harnessMs: [],
      phases: [],
      binaryStartMs: [],
      exportMs: [],
      bareOtherCores: [],
      harnessOtherCores: [],
    };
    try {
      // The first start of the 185 MB binary may read it from disk: warm the page cache, then time starts.
      await timeBinaryStart(root);
      for (let index = 0; index < options.repetitions; index++)
        samples.binaryStartMs.push(round(await timeBinaryStart(root)));
      for (let index = 0; index < options.repetitions; index++) {
        const runBare = () =>
          withOtherLoad(() =>
            runBareOpenCode({
              server,
              evalId: EVAL_ID,
              control: "positive",
              prompt: evaluation.prompt.text,
              parent: root,
            }),
          );
        const runHarness = () => withOtherLoad(() => runHarnessOnce(benchmarkDir));
        // Alternate which goes first, so a slow drift of the machine does not favour one side.
        let bare: { value: BareRunResult; otherCores: number };
        let harness: { value: HarnessRun; otherCores: number };
        if (index % 2 === 0) {
          bare = await runBare();
          harness = await runHarness();
        } else {
          harness = await runHarness();
          bare = await runBare();
        }
        const [bareRun, harnessRun] = [bare.value, harness.value];
        samples.bareOtherCores.push(round(bare.otherCores, 2));
        samples.harnessOtherCores.push(round(harness.otherCores, 2));
        if (bareRun.text !== "APPLE")
          throw new Error(`the bare run answered ${JSON.stringify(bareRun.text)}, not APPLE`);
        samples.bareMs.push(round(bareRun.ms));
        samples.exportMs.push(round(bareRun.exportMs ?? Number.NaN));
        samples.harnessMs.push(round(harnessRun.ms));
        samples.phases.push(harnessRun.phases);
      }
    } finally {
      await server.close();
    }
    return { repetitions: options.repetitions, samples, summary: summarizeOverhead(samples) };
  });
}

interface HarnessRun {
  ms: number;
  phases: HarnessPhases;
}

async function runHarnessOnce(benchmarkDir: string): Promise<HarnessRun> {
  const at: Partial<Record<RunnerEvent["type"], number>> = {};
  let candidateOpenCode = Number.NaN;
  let judged: number | null | undefined;
  const start = now();
  const summary = await runBenchmark({
    benchmark: benchmarkDir,
    new: true,
    concurrency: 1,
    onEvent: (event) => {
      at[event.type] ??= now() - start;
      if (event.type === "candidate.finished") candidateOpenCode = event.evalRun.elapsedMs ?? Number.NaN;
      if (event.type === "judge.finished") judged = event.judgeRun.scores?.correct_answer?.value;
    },
  });
  const ms = now() - start;
  if (!summary.complete || judged !== 1)
    throw new Error(
      `the harness run did not score the positive control 1 (got ${judged}); open: ${JSON.stringify(summary.open)}`,
    );
  const t = (type: RunnerEvent["type"]) => at[type] ?? Number.NaN;
  const candidate = t("candidate.finished") - t("candidate.started");
  const phases: HarnessPhases = {
    setup: t("run.started"),
    startup: t("candidate.started") - t("run.started"),
    candidate,
    candidateOpenCode,
    candidateRecording: candidate - candidateOpenCode,
    judge: t("judge.finished") - t("judge.started"),
    finish: ms - t("judge.finished") + (t("judge.started") - t("candidate.finished")),
  };
  return { ms, phases: roundPhases(phases) };
}

/** Private HOME and XDG dirs, so not even `--version` can touch the user's own OpenCode state. */
async function timeBinaryStart(root: string): Promise<number> {
  const home = join(root, "version-home");
  const env = {
    PATH: "/usr/bin:/bin",
    HOME: home,
    XDG_DATA_HOME: home,
    XDG_CONFIG_HOME: home,
    XDG_CACHE_HOME: home,
    XDG_STATE_HOME: home,
  };
  const start = now();
  const child = Bun.spawn([resolveOpenCodeBinary(), "--version"], { stdout: "ignore", stderr: "ignore", env });
  await child.exited;
  return now() - start;
}

function roundPhases(phases: HarnessPhases): HarnessPhases {
  return Object.fromEntries(
    Object.entries(phases).map(([key, value]) => [key, round(value)]),
  ) as unknown as HarnessPhases;
}

function summarizeOverhead(samples: HarnessOverheadResult["samples"]): HarnessOverheadResult["summary"] {
  const bare = summarize(samples.bareMs);
  const harness = summarize(samples.harnessMs);
  const keys = Object.keys(samples.phases[0] ?? {}) as (keyof HarnessPhases)[];
  const phases = Object.fromEntries(
    keys.map((key) => [key, round(median(samples.phases.map((phase) => phase[key])))]),
  ) as unknown as HarnessPhases;
  const pairedMedian = (harnessSide: readonly number[]) =>
    round(median(harnessSide.map((value, index) => value - samples.bareMs[index]!)));
  return {
    bare,
    harness,
    overheadSeconds: round((harness.median - bare.median) / 1000, 2),
    ratio: round(harness.median / bare.median, 2),
    paired: {
      overheadMs: pairedMedian(samples.harnessMs),
      openCodeMs: pairedMedian(samples.phases.map((phase) => phase.candidateOpenCode)),
      ratio: round(median(samples.harnessMs.map((value, index) => value / samples.bareMs[index]!)), 2),
    },
    otherCores: {
      bare: round(median(samples.bareOtherCores), 2),
      harness: round(median(samples.harnessOtherCores), 2),
    },
    phases,
    binaryStart: summarize(samples.binaryStartMs),
    export: summarize(samples.exportMs),
  };
}

export function sectionHarnessOverhead(result: HarnessOverheadResult): Section {
  const { summary } = result;
  const phase = (label: string, ms: number) => [label, "", seconds(ms), ""];
  return {
    title: `1. Harness overhead per eval run (exact-answer × control/positive, one text turn; median of ${result.repetitions})`,
    columns: ["", "min s", "median s", "max s"],
    rows: [
      [
        "bare `opencode run` (probe recipe, spawn → exit)",
        seconds(summary.bare.min),
        seconds(summary.bare.median),
        seconds(summary.bare.max),
      ],
      [
        "harness `runBenchmark` (call → return)",
        seconds(summary.harness.min),
        seconds(summary.harness.median),
        seconds(summary.harness.max),
      ],
      ["overhead (harness − bare)", "", summary.overheadSeconds.toFixed(2), ""],
      [
        "ratio harness / bare, paired (median of the pairs' ratios: the aim's figure)",
        "",
        `${summary.paired.ratio.toFixed(2)}×`,
        "",
      ],
      ["ratio of the medians (each median from a different pair)", "", `${summary.ratio.toFixed(2)}×`, ""],
      ["paired: harness − bare (median of the pairs' differences)", "", seconds(summary.paired.overheadMs), ""],
      ["paired: the harness's OpenCode process − bare", "", seconds(summary.paired.openCodeMs), ""],
      [
        "other load meanwhile, cores (bare / harness samples)",
        "",
        `${summary.otherCores.bare.toFixed(2)} / ${summary.otherCores.harness.toFixed(2)}`,
        "",
      ],
      phase("  phase: setup (load, bundle judge.ts, store, plan)", summary.phases.setup),
      phase("  phase: freeze inputs (code-judge worker from its cache), start control server", summary.phases.startup),
      phase("  phase: candidate (total)", summary.phases.candidate),
      phase("    of which OpenCode process", summary.phases.candidateOpenCode),
      phase("    of which seed + snapshots + archive + exports + extract", summary.phases.candidateRecording),
      phase("  phase: judge (code worker)", summary.phases.judge),
      phase("  phase: summary, close", summary.phases.finish),
      [
        "reference: `opencode --version` (binary start)",
        seconds(summary.binaryStart.min),
        seconds(summary.binaryStart.median),
        seconds(summary.binaryStart.max),
      ],
      [
        "reference: `opencode export <session>` (no longer run by the harness)",
        seconds(summary.export.min),
        seconds(summary.export.median),
        seconds(summary.export.max),
      ],
    ],
    notes: [
      "phases: median of each phase, from the runner's events (they need not add up to the median total)",
      "other load: CPU the rest of the machine used during a sample (busy time less this process and its children), per second; above ~0.2 cores samples move by more than the overhead",
    ],
  };
}
