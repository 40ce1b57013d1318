// `openeval retry <eval-run>...`: run failed candidates again. Failed work is never retried silently.
import { BENCHMARK_OPTION, defineCommand } from "./command.ts";
import { UsageError } from "./errors.ts";
import { executeRun, RUN_OPTIONS } from "./execute-run.ts";

export const retryCommand = defineCommand({
  name: "retry",
  usage: "retry <eval-run>... [--benchmark <dir>] [--run <dir>]",
  summary: "Execute the candidates of the named failed eval runs again (ids as `openeval plan` shows them, or as the viewer shortens them: a prefix no other eval run shares).",
  options: { ...BENCHMARK_OPTION, ...RUN_OPTIONS },
  run: (flags, evalRuns) => {
    if (evalRuns.length === 0) throw new UsageError("name the eval runs to retry, e.g. `openeval retry eval_1234…`; `openeval plan` lists failed ones");
    return executeRun(flags, { retry: evalRuns, explicitOnly: true });
  },
});
