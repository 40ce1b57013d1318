// `openeval rejudge [<eval-run>...]`: grade recordings again — the named ones, or every failed judgment.
import { BENCHMARK_OPTION, defineCommand } from "./command.ts";
import { executeRun, RUN_OPTIONS } from "./execute-run.ts";

export const rejudgeCommand = defineCommand({
  name: "rejudge",
  usage: "rejudge [<eval-run>...] [--benchmark <dir>] [--run <dir>]",
  summary: "Grade the named eval runs again, or, without names, every recording whose judging failed. The recordings are reused. Ids as for retry: in full, or a prefix no other eval run shares.",
  options: { ...BENCHMARK_OPTION, ...RUN_OPTIONS },
  run: (flags, evalRuns) => executeRun(flags, { rejudge: evalRuns.length > 0 ? evalRuns : "failed", explicitOnly: true }),
});
