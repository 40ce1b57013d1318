// The `openeval` command line: picks the command, parses its flags, runs it, formats errors in one place. A command's
// action (and the stages it needs) is imported only when it runs: `--help` and `--version` load cli/'s light files.
import { formatCliError, UsageError } from "./errors.ts";
import { parseFlags, type Action, type CommandSpec, type Options } from "./command.ts";
import { COMMANDS, type ActionOf, type CommandName } from "./commands.ts";
import { formatHelp, formatOverview, helpWidth } from "./help.ts";
import { HARNESS_VERSION, OPENCODE_VERSION } from "../util/versions.ts";

/** Each command's action, imported when it runs. */
const ACTIONS: { [N in CommandName]: () => Promise<{ run: ActionOf<N> }> } = {
  run: async () => (await import("./run.ts")).runCommand,
  plan: async () => (await import("./plan.ts")).planCommand,
  retry: async () => (await import("./retry.ts")).retryCommand,
  rejudge: async () => (await import("./rejudge.ts")).rejudgeCommand,
  "add-models": async () => (await import("./add-models.ts")).addModelsCommand,
  "remove-models": async () => (await import("./remove-models.ts")).removeModelsCommand,
  "merge-runs": async () => (await import("./merge-runs.ts")).mergeRunsCommand,
  snapshot: async () => (await import("./snapshot.ts")).snapshotCommand,
  baseline: async () => (await import("./baseline.ts")).baselineCommand,
  review: async () => (await import("./review.ts")).reviewCommand,
  report: async () => (await import("./report.ts")).reportCommand,
  calibrate: async () => (await import("./calibrate.ts")).calibrateCommand,
  audit: async () => (await import("./audit.ts")).auditCommand,
  image: async () => (await import("./image.ts")).imageCommand,
  engines: async () => (await import("./engines.ts")).enginesCommand,
  view: async () => (await import("./view.ts")).viewCommand,
  export: async () => (await import("./export.ts")).exportCommand,
  ci: async () => (await import("./ci.ts")).ciCommand,
  init: async () => (await import("./init.ts")).initCommand,
  validate: async () => (await import("./validate.ts")).validateCommand,
  verify: async () => (await import("./verify.ts")).verifyCommand,
};

function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(formatOverview(COMMANDS, helpWidth(process.stdout)));
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    console.log(`openeval ${HARNESS_VERSION}\nopencode ${OPENCODE_VERSION} (pinned)`);
    return 0;
  }
  // A command that prints JSON prints its error as JSON too; checked on the raw arguments, so a flag error counts.
  const json = isCommandName(name) && Object.hasOwn(COMMANDS[name].options, "json") && rest.includes("--json");
  try {
    if (!isCommandName(name)) throw new UsageError("unknownCommand", { name, commands: Object.keys(COMMANDS) });
    // Each command's options differ; its action takes the flags its own spec parsed.
    const spec: CommandSpec<Options> = COMMANDS[name];
    const { values, positionals } = parseFlags(name, spec, rest);
    if ((values as { help?: boolean }).help) {
      console.log(formatHelp(COMMANDS[name], helpWidth(process.stdout)));
      return 0;
    }
    // The flags were parsed with this command's own options.
    const command = (await ACTIONS[name]()) as { run: Action<Options> };
    return await command.run(values, positionals);
  } catch (error) {
    const formatted = formatCliError(error);
    console.error(formatted.message);
    if (json) console.log(JSON.stringify(formatted.json));
    return formatted.exitCode;
  }
}

process.exitCode = await main(process.argv.slice(2));
