// What run, retry and rejudge share: the runner with the chosen reporter, the summary and reports, the exit code.
import { writeFile } from "node:fs/promises";
import { describeVerdict, exitCodeFor } from "../results/index.ts";
import { runBenchmark, type RunBenchmarkOptions } from "../run/index.ts";
import { type RunSummary } from "../summary/index.ts";
import type { PlanScope } from "../plan/index.ts";
import {
  chooseEventReporter,
  createEventReporter,
  formatJunit,
  formatMarkdownSummary,
  formatCaseTable,
  formatSummary,
} from "../report/index.ts";
import { CONSOLE_OUTPUT } from "./console-output.ts";
import { listFlag } from "./command.ts";
import { UsageError } from "./errors.ts";
import { handleStopSignals } from "./stop-signals.ts";

/** The verdict contributor selection from --gate, --only, --no-llm-judge, --no-integrity and --no-invariants. */
export function parseSelection(flags: Record<string, unknown>) {
  return {
    gate: listFlag("gate", flags.gate as string[] | undefined),
    only: listFlag("only", flags.only as string[] | undefined),
    noLlmJudge: flags["no-llm-judge"] === true,
    noIntegrity: flags["no-integrity"] === true,
    noInvariants: flags["no-invariants"] === true,
  };
}

/** What a run-like command starts: runBenchmark, or one of the run maintenance functions built on it (add-models). */
export type StartRun = (options: Omit<RunBenchmarkOptions, "benchmark">) => Promise<RunSummary>;

export async function executeRun(flags: Record<string, unknown>, scope: PlanScope, start?: StartRun): Promise<number> {
  const stop = handleStopSignals((message) => console.error(message));
  const json = flags.json === true;
  const reporter = createEventReporter(
    chooseEventReporter({ json, terminal: process.stderr.isTTY === true }),
    CONSOLE_OUTPUT,
  );
  try {
    const options = {
      concurrency: parsePositiveInteger(flags.concurrency, "concurrency"),
      scope,
      selection: parseSelection(flags),
      signal: stop.signal,
      onEvent: reporter,
    };
    const summary = start
      ? await start(options)
      : await runBenchmark({
          ...options,
          benchmark: flags.benchmark as string,
          run: flags.run as string | undefined,
          new: flags.new === true,
        });
    const code = await reportSummary(summary, flags);
    const signal = stop.received();
    if (signal === null) return code;
    console.error(
      `Interrupted by ${signal}: ${summary.open.length} slot(s) unfinished (listed above); \`openeval run\` resumes them.`,
    );
    return stop.exitCode()!;
  } finally {
    stop.dispose();
  }
}

/**
 * Prints the summary (the table; JSON with --json, its verdict's words beside the verdict; Markdown with report's
 * --markdown), writes --junit/--summary files, and returns the exit code. `markdownAppendix` follows the Markdown
 * summary wherever it goes (report's --against-baseline section).
 */
export async function reportSummary(
  summary: RunSummary,
  flags: Record<string, unknown>,
  markdownAppendix = "",
): Promise<number> {
  const markdown = () => formatMarkdownSummary(summary) + markdownAppendix;
  if (flags.json === true)
    console.log(
      JSON.stringify({ type: "summary", ...summary, verdictWords: describeVerdict(summary.verdict, summary.complete) }),
    );
  else if (flags.markdown === true) console.log(markdown());
  else console.log(formatSummary(summary));
  if (flags.cases === true && flags.json !== true) console.log(`\nBy case:\n${formatCaseTable(summary)}`);
  if (typeof flags.junit === "string") await writeFile(flags.junit, formatJunit(summary));
  if (typeof flags.summary === "string") await writeFile(flags.summary, markdown());
  return exitCodeFor(summary.verdict, summary.complete);
}

export function parsePositiveInteger(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new UsageError("valueInvalid", { flag, takes: "a whole number from 1", got: String(value) });
  return number;
}
