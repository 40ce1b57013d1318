// What run, retry and rejudge share: the runner with the chosen reporter, the summary, and the exit code.
import { runBenchmark, type RunSummary } from "../run/index.ts";
import type { PlanScope } from "../plan/index.ts";
import { createJsonReporter } from "../report/index.ts";
import { createPlainReporter } from "../report/index.ts";
import { formatSummary } from "../report/index.ts";
import { createTtyProgress } from "../report/index.ts";
import { UsageError, EXIT } from "./errors.ts";
import type { Options } from "./command.ts";

export const RUN_OPTIONS = {
  run: { type: "string" },
  new: { type: "boolean", default: false },
  concurrency: { type: "string" },
  json: { type: "boolean", default: false },
} as const satisfies Options;

export async function executeRun(flags: Record<string, unknown>, scope: PlanScope): Promise<number> {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  const json = flags.json === true;
  const reporter = json
    ? createJsonReporter((line) => console.log(line))
    : process.stderr.isTTY
      ? createTtyProgress(process.stderr)
      : createPlainReporter((line) => console.error(line));
  const summary: RunSummary = await runBenchmark({
    benchmark: flags.benchmark as string,
    run: flags.run as string | undefined,
    new: flags.new === true,
    concurrency: parsePositiveInteger(flags.concurrency, "--concurrency"),
    scope,
    signal: controller.signal,
    onEvent: reporter,
  });
  if (json) console.log(JSON.stringify({ type: "summary", ...summary }));
  else console.log(formatSummary(summary));
  return summary.complete ? EXIT.pass : EXIT.incomplete;
}

export function parsePositiveInteger(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${flag} takes a whole number from 1; got "${String(value)}"`);
  return number;
}
