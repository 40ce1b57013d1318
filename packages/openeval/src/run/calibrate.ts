// calibrateBenchmark(): runs every eval's controls and checks its judges against them: every
// positive control (`controls/positive*.json`) must score 1 on every criterion, every negative control
// (`controls/negative*.json`) must score below 1, or the judge is suspect. An eval with its own environment is checked
// the same way with its built-in controls: its oracle (solution/solve.sh) must earn full credit and its nop less, or
// the task is broken.
import { loadBenchmark, type BenchmarkDefinition } from "../load/index.ts";
import type { RunnerListener, RunSummary } from "../summary/index.ts";
import { runBenchmark } from "./run-benchmark.ts";
import { controlName } from "../util/control-model.ts";

export interface ControlCheck {
  evalId: string;
  control: string;
  expectation: "positive" | "negative" | "none";
  /** Criterion id → mean credit over repetitions (null: unresolved or unjudged). */
  criteria: Record<string, number | null>;
  /** The eval score of this control (mean of its criteria), null when unresolved. */
  score: number | null;
  status: "pass" | "fail" | "unjudged" | "unchecked";
  /** Why it failed, naming the criteria. */
  problem: string | null;
}

export interface CalibrationReport {
  runDirectory: string;
  checks: ControlCheck[];
  /** Evals whose judge failed calibration (a positive or negative control). */
  suspect: string[];
  /** Tasks whose oracle earned less than full credit, or whose nop earned it. */
  broken: string[];
  complete: boolean;
}

export async function calibrateBenchmark(options: {
  benchmark: string | BenchmarkDefinition;
  run?: string;
  new?: boolean;
  onEvent?: RunnerListener;
}): Promise<CalibrationReport> {
  const benchmark = typeof options.benchmark === "string" ? await loadBenchmark(options.benchmark) : options.benchmark;
  const names = [...new Set(benchmark.evals.flatMap((evaluation) => Object.keys(evaluation.controls)))].sort();
  let run = options.run;
  let fresh = options.new;
  const summaries: RunSummary[] = [];
  // One pass per control name, over the evals that have it: each pass resumes the run the first one chose.
  for (const name of names) {
    const evals = benchmark.evals
      .filter((evaluation) => name in evaluation.controls)
      .map((evaluation) => evaluation.id);
    const summary = await runBenchmark({
      benchmark,
      run,
      new: fresh,
      scope: { replaceModels: [`control/${name}`], onlyEvals: evals, variants: [] },
      onEvent: options.onEvent,
    });
    summaries.push(summary);
    run = summary.directory;
    fresh = false;
  }
  const checks = summaries.flatMap((summary) =>
    summary.models.flatMap((model) => model.evals.map((evaluation) => check(evaluation, controlName(model.model)))),
  );
  const failed = (task: boolean) => [
    ...new Set(
      checks
        .filter((item) => item.status === "fail" && isTaskControl(item.control) === task)
        .map((item) => item.evalId),
    ),
  ];
  return {
    runDirectory: run ?? "",
    checks,
    suspect: failed(false),
    broken: failed(true),
    complete: checks.every((item) => item.status !== "unjudged"),
  };
}

/** The built-in controls check the task itself (its solution and tests), not its judge. */
function isTaskControl(control: string): boolean {
  return control === "oracle" || control === "nop";
}

function check(evaluation: RunSummary["models"][number]["evals"][number], control: string): ControlCheck {
  const expectation =
    control.startsWith("positive") || control === "oracle"
      ? "positive"
      : control.startsWith("negative") || control === "nop"
        ? "negative"
        : "none";
  const criteria = Object.fromEntries(Object.entries(evaluation.criteria).map(([id, score]) => [id, score.value]));
  const base = { evalId: evaluation.evalId, control, expectation, criteria, score: evaluation.value } as const;
  if (expectation === "none") return { ...base, status: "unchecked", problem: null };
  if (Object.values(criteria).some((value) => value === null) || evaluation.value === null)
    return { ...base, status: "unjudged", problem: "not every criterion is judged" };
  if (expectation === "positive") {
    const below = Object.entries(criteria).filter(([, value]) => value !== 1);
    return below.length === 0
      ? { ...base, status: "pass", problem: null }
      : {
          ...base,
          status: "fail",
          problem: `${control === "oracle" ? "broken task: the oracle (solution/solve.sh)" : "positive control"} scored below 1 on ${below.map(([id, value]) => `${id} (${value})`).join(", ")}`,
        };
  }
  return evaluation.value < 1
    ? { ...base, status: "pass", problem: null }
    : {
        ...base,
        status: "fail",
        problem:
          control === "nop"
            ? "broken task: the nop control, which does nothing, earned full credit: the tests pass without any work"
            : "negative control scored 1 on every criterion: the judge does not tell it apart",
      };
}
