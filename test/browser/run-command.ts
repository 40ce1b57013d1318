// Runs `openeval view` / `openeval export` from their command files, the way cli/main.ts runs a command, for the
// browser tests (usage: bun test/browser/run-command.ts <view|export> [flags]). Once cli/main.ts registers both,
// the tests can use test/helpers/cli.ts instead.
import { exportCommand } from "../../packages/openeval/src/cli/export.ts";
import { formatHelp, parseFlags, type Command } from "../../packages/openeval/src/cli/command.ts";
import { formatCliError } from "../../packages/openeval/src/cli/errors.ts";
import { viewCommand } from "../../packages/openeval/src/cli/view.ts";

const commands: Record<string, Command<any>> = { view: viewCommand, export: exportCommand };
const [name = "", ...argv] = process.argv.slice(2);
const command = commands[name];
if (!command) {
  console.error(`run-command: unknown command "${name}"; use view or export`);
  process.exit(2);
}
try {
  const { values, positionals } = parseFlags(command, argv);
  if ((values as { help?: boolean }).help) console.log(formatHelp(command));
  else process.exitCode = await command.run(values, positionals);
} catch (error) {
  const { message, exitCode } = formatCliError(error);
  console.error(message);
  process.exitCode = exitCode;
}
