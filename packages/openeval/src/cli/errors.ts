// The one place CLI errors are formatted: an OpenEvalError (any stage's error a user can act on) briefly, with its
// code and the exit code it carries; anything else with a stack, as a bug to report. With `--json` the same error is
// also one JSON object on stdout, so a script reads the code without parsing the message.
import { EXIT_CODES } from "../util/exit-codes.ts";
import { OpenEvalError, SituationError, type Situation, type SituationArgs } from "../util/errors.ts";

/** The exit codes (one table, shared with the verdict; docs/guide/ci.md). */
export const EXIT = EXIT_CODES;

const runs = (given: readonly string[]) => `${given.length}: ${given.join(" ") || "none"}`;

/** Each way a command line can be wrong; every one says what to pass instead. */
const USAGE = {
  unknownCommand: {
    code: "OE_USAGE",
    message: ({ name, commands }: { name: string; commands: string[] }) =>
      `unknown command "${name}"; the commands are: ${commands.join(", ")}`,
  },
  optionUnknown: {
    code: "OE_USAGE",
    message: ({ command, option, help }: { command: string; option: string; help: string }) =>
      `${command} does not take ${option}; the options it takes are listed below\n\n${help}`,
  },
  flagsUnparsed: {
    code: "OE_USAGE",
    message: ({ problem, help }: { problem: string; help: string }) => `${problem}\n\n${help}`,
  },
  valueEmpty: {
    code: "OE_USAGE",
    message: ({ flag, expected }: { flag: string; expected: string }) =>
      `--${flag} was given an empty value; give ${expected}, or leave the flag out`,
  },
  listItemEmpty: {
    code: "OE_USAGE",
    message: ({ flag, values }: { flag: string; values: readonly string[] }) =>
      `--${flag} has an empty item in "${values.join(",")}"; separate the values with single commas`,
  },
  valueInvalid: {
    code: "OE_USAGE",
    message: ({ flag, takes, got }: { flag: string; takes: string; got: string }) =>
      `--${flag} takes ${takes}; got "${got}"`,
  },
  portInUse: {
    code: "OE_USAGE",
    message: ({ port }: { port: number }) => `Port ${port} is in use; pick another with --port (0 picks a free one)`,
  },
  flagNeedsFormat: {
    code: "OE_USAGE",
    message: ({ flag, format }: { flag: string; format: string }) =>
      `--${flag} applies to --format ${format} only; leave it out, or export with --format ${format}`,
  },
  outputMissing: { code: "OE_USAGE", message: () => "--output <dir> is required: the folder to write the export to" },
  variantUnknown: {
    code: "OE_USAGE",
    message: ({ variant, arms }: { variant: string; arms: string[] }) =>
      `--variant "${variant}" matches no variant; the valid values are: ${arms.join(", ")}`,
  },
  oneRun: {
    code: "OE_USAGE",
    message: ({ command, given, or }: { command: string; given: readonly string[]; or?: string }) =>
      `${command} takes one run${or ? ` (or ${or})` : ""}; got ${runs(given)}`,
  },
  runForModels: {
    code: "OE_USAGE",
    message: ({ command }: { command: "add-models" | "remove-models" }) =>
      `${command} takes one run, e.g. \`openeval ${command} results/<run-id> --model openai/gpt-5\``,
  },
  modelsMissing: {
    code: "OE_USAGE",
    message: ({ command, verb }: { command: "add-models" | "remove-models"; verb: "add" | "retire" }) =>
      `${command}: name the models to ${verb} with --model <provider/model> (repeatable)`,
  },
  mergeRunsPair: {
    code: "OE_USAGE",
    message: () => "merge-runs takes two runs: the run to merge into, then the run to merge from",
  },
  snapshotArguments: {
    code: "OE_USAGE",
    message: () => "snapshot takes a run and a name, e.g. `openeval snapshot results/<run-id> before-change`",
  },
  reviewArguments: {
    code: "OE_USAGE",
    message: ({ missing }: { missing: string }) =>
      `review needs ${missing}, e.g. \`openeval review results/<run-id> eval_1a2b --criterion correct --score 1 --reason "The fix is right"\``,
  },
  againstReviewsNew: {
    code: "OE_USAGE",
    message: () =>
      "--against-reviews reads a recorded run's reviews and runs nothing; drop --new (pick the run with --run <dir>)",
  },
  initFolders: {
    code: "OE_USAGE",
    message: ({ given }: { given: readonly string[] }) => `init takes one folder (default .); got ${runs(given)}`,
  },
  rubricWithoutEval: {
    code: "OE_USAGE",
    message: () =>
      "--rubric chooses the judge of the eval --eval <id> adds; a new benchmark gets both kinds. Add --eval <id>, or drop --rubric",
  },
  retryWithoutEvalRuns: {
    code: "OE_USAGE",
    message: () => "name the eval runs to retry, e.g. `openeval retry eval_1234…`; `openeval plan` lists failed ones",
  },
  baselineAction: {
    code: "OE_USAGE",
    message: () => "use `openeval baseline set <run-dir> [--accept-failing]` or `openeval baseline show`",
  },
  summaryFlagsWithCompare: {
    code: "OE_USAGE",
    message: ({ flags }: { flags: string[] }) =>
      `${flags.map((name) => `--${name}`).join(", ")} ${flags.length === 1 ? "is" : "are"} for a run's summary, not --compare; drop ${flags.length === 1 ? "it" : "them"}, or drop --compare`,
  },
  modelWithoutCompare: {
    code: "OE_USAGE",
    message: () => "--model picks the two sides of --compare; a run's summary shows every model",
  },
  jsonAndMarkdown: {
    code: "OE_USAGE",
    message: () => "--json and --markdown each choose what stdout holds; pass one of them",
  },
  againstBaselineWithoutMarkdown: {
    code: "OE_USAGE",
    message: () =>
      "--against-baseline adds a section to the Markdown summary; pass --markdown (or --summary <file>) with it",
  },
  ciAction: {
    code: "OE_USAGE",
    message: ({ given }: { given: readonly string[] }) =>
      `ci takes one action, comment (e.g. \`openeval ci comment --body-file summary.md\`); got ${given.join(" ") || "none"}`,
  },
  compareRuns: {
    code: "OE_USAGE",
    message: ({ given }: { given: readonly string[] }) =>
      `--compare takes two runs, a and b (a may be \`baseline\`); got ${runs(given)}`,
  },
  compareModels: {
    code: "OE_USAGE",
    message: ({ models, model }: { models: string[]; model: string }) =>
      `--model with --compare takes one model, or one per side ("a,b"); got ${models.length}: ${model}`,
  },
} as const satisfies Record<string, Situation>;

type UsageSituation = keyof typeof USAGE;

export class UsageError<S extends UsageSituation = UsageSituation> extends SituationError<typeof USAGE, S> {
  constructor(situation: S, ...[data, options]: SituationArgs<(typeof USAGE)[S]>) {
    super(USAGE, situation, data, options);
  }
}

export interface CliError {
  /** What stderr shows: `error OE_…: message`, or an unexpected error with its stack. */
  message: string;
  exitCode: number;
  /** What `--json` prints on stdout; `code` is null for an unexpected error (a bug, not a situation a script handles). */
  json: { error: { code: string | null; message: string } };
}

export function formatCliError(error: unknown): CliError {
  if (error instanceof OpenEvalError) {
    return {
      message: `error ${error.code}: ${error.message}`,
      exitCode: error.exitCode,
      json: { error: { code: error.code, message: error.message } },
    };
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `Unexpected error (please report it):\n${stack}`,
    exitCode: EXIT.incomplete,
    json: { error: { code: null, message } },
  };
}
