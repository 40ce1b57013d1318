// The shape of one CLI command (usage, summary, options that each say what they do) and flag parsing shared by all
// of them (node:util parseArgs, strict). Light on purpose: `--help` loads this and no stage (see main.ts).
import { parseArgs, type ParseArgsOptionDescriptor } from "node:util";
import { UsageError } from "./errors.ts";
import { formatHelp, helpWidth } from "./help.ts";

export interface Option extends ParseArgsOptionDescriptor {
  /** One line for `--help`: what the option does. */
  description: string;
  /** The value's name in `--help` (`--benchmark <dir>`); default "value". */
  value?: string;
}

export type Options = Record<string, Option>;

export interface CommandSpec<O extends Options = Options> {
  usage: string;
  /** What the command does; the first sentence is its line in `openeval --help`. */
  summary: string;
  /** Every flag the command honours; parsing refuses any other. */
  options: O;
}

type Flags<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>["values"];

/** A command's work: returns the process exit code. */
export type Action<O extends Options> = (flags: Flags<O>, positionals: string[]) => Promise<number>;

export function parseFlags<O extends Options>(name: string, command: CommandSpec<O>, argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const unknown =
      (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? /'(-[^']*)'/.exec((error as Error).message)?.[1]
        : undefined;
    const help = formatHelp(command, helpWidth(process.stderr));
    throw unknown
      ? new UsageError("optionUnknown", { command: name, option: unknown, help })
      : new UsageError("flagsUnparsed", { problem: (error as Error).message, help });
  }
  refuseEmptyValues(command.options, parsed.values);
  return parsed;
}

/** `--model=` or `--only-eval ""` names nothing: refused, never read as "no filter". */
function refuseEmptyValues(options: Options, values: Record<string, unknown>): void {
  for (const [flag, value] of Object.entries(values)) {
    if ([value].flat().some((item) => typeof item === "string" && item.trim() === "")) {
      throw new UsageError("valueEmpty", { flag, expected: options[flag]?.value ?? "a value" });
    }
  }
}

/**
 * A repeatable flag's values, each of which may list several separated by commas (`--model a,b --model c`).
 * An empty item (`--model a,,b`, `--model ,`) is refused, never dropped.
 */
export function listFlag(flag: string, values: readonly string[] | undefined): string[] | undefined {
  const items = values?.flatMap((value) => value.split(",").map((item) => item.trim()));
  if (items?.includes("")) throw new UsageError("listItemEmpty", { flag, values: values! });
  return items;
}
