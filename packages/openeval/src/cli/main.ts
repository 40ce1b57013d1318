// The `openeval` command line: picks the command, parses its flags, runs it, formats errors in one place.
import { formatCliError } from "./errors.ts";
import { formatHelp, parseFlags, type Command } from "./command.ts";
import { addModelsCommand } from "./add-models.ts";
import { baselineCommand } from "./baseline.ts";
import { calibrateCommand } from "./calibrate.ts";
import { exportCommand } from "./export.ts";
import { imageCommand } from "./image.ts";
import { mergeRunsCommand } from "./merge-runs.ts";
import { planCommand } from "./plan.ts";
import { rejudgeCommand } from "./rejudge.ts";
import { removeModelsCommand } from "./remove-models.ts";
import { reportCommand } from "./report.ts";
import { retryCommand } from "./retry.ts";
import { runCommand } from "./run.ts";
import { snapshotCommand } from "./snapshot.ts";
import { validateCommand } from "./validate.ts";
import { viewCommand } from "./view.ts";
import { HARNESS_VERSION, OPENCODE_VERSION } from "../util/versions.ts";
import { verifyCommand } from "./verify.ts";

const COMMANDS: Command<any>[] = [runCommand, planCommand, retryCommand, rejudgeCommand, addModelsCommand, removeModelsCommand, mergeRunsCommand, snapshotCommand, baselineCommand, reportCommand, calibrateCommand, imageCommand, viewCommand, exportCommand, validateCommand, verifyCommand];

function formatOverview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    "openeval — benchmark harness for coding agents",
    "",
    "Usage: openeval <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Run `openeval <command> --help` for a command's options; `openeval --version` shows the versions.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(formatOverview());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    console.log(`openeval ${HARNESS_VERSION}\nopencode ${OPENCODE_VERSION} (pinned)`);
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(`error: unknown command "${name}"; the commands are: ${COMMANDS.map((candidate) => candidate.name).join(", ")}`);
    return 2;
  }
  try {
    const { values, positionals } = parseFlags(command, rest);
    if ((values as { help?: boolean }).help) {
      console.log(formatHelp(command));
      return 0;
    }
    return await command.run(values, positionals);
  } catch (error) {
    const { message, exitCode } = formatCliError(error);
    console.error(message);
    return exitCode;
  }
}

process.exitCode = await main(process.argv.slice(2));
