// Which run a command over one recorded run means: a run directory, a run id under the benchmark's results/,
// or (none given) the latest run. Shared by export, verify and report.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { findLatestRun, resultsRoot, STORE_FILE } from "../records/index.ts";
import { UsageError } from "./errors.ts";

/** A run directory, a run id under the benchmark's results/, or (none given) the latest run. */
export function chooseRun(benchmark: string, run: string | undefined): string {
  if (run === undefined) {
    const latest = findLatestRun(resolve(benchmark));
    if (!latest) throw new UsageError("noRuns", { root: resultsRoot(resolve(benchmark)) });
    return latest;
  }
  for (const candidate of [resolve(run), join(resultsRoot(resolve(benchmark)), run)]) {
    if (existsSync(join(candidate, STORE_FILE))) return candidate;
  }
  throw new UsageError("notARun", { run, root: resultsRoot(resolve(benchmark)) });
}
