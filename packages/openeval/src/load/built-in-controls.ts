// The controls an eval with its own environment has without a control file (docs/guide/harbor-tasks.md):
// `control/nop` does nothing, and with a reference solution `control/oracle` runs solution/solve.sh, which its
// container alone receives at /solution. Calibration expects the oracle to earn full credit and the nop less.
import { shellWord } from "../util/shell-word.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ControlFile } from "@openeval/control-model";

/** OpenCode's bash tool waits at most this long for one command. */
const BASH_TOOL_TIMEOUT_MS = 600_000;

export const BUILT_IN_CONTROLS = ["oracle", "nop"] as const;

/** `solutionEnv`: the variables solve.sh runs with (a Harbor task's `[solution] env`). */
export function builtInControls(
  evalDirectory: string,
  hasEnvironment: boolean,
  solutionEnv: Record<string, string> = {},
): Record<string, ControlFile> {
  if (!hasEnvironment) return {};
  const nop: ControlFile = { turns: [{ text: "Nothing done: the nop control leaves the workspace as it found it." }] };
  if (!existsSync(join(evalDirectory, "solution", "solve.sh"))) return { nop };
  const oracle: ControlFile = {
    turns: [
      {
        tools: [
          {
            name: "bash",
            input: {
              command: [
                ...Object.entries(solutionEnv).map(([name, value]) => `${name}=${shellWord(value)}`),
                "bash /solution/solve.sh",
              ].join(" "),
              description: "Run the task's reference solution",
              timeout: BASH_TOOL_TIMEOUT_MS,
            },
          },
        ],
      },
      { text: "Ran the task's reference solution." },
    ],
  };
  return { oracle, nop };
}
