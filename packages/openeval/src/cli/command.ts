// The shape of one CLI command, and flag parsing shared by all of them (node:util parseArgs, strict).
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.ts";

export type Options = NonNullable<ParseArgsConfig["options"]>;

export interface Command<O extends Options = Options> {
  name: string;
  summary: string;
  usage: string;
  options: O;
  /** Returns the process exit code. */
  run(flags: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>["values"], positionals: string[]): Promise<number>;
}

export const BENCHMARK_OPTION = { benchmark: { type: "string", default: "." } } as const satisfies Options;

export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}

export function parseFlags<O extends Options>(command: Command<O>, argv: string[]) {
  try {
    return parseArgs({ args: argv, options: { ...command.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${formatHelp(command)}`);
  }
}

export function formatHelp(command: Command): string {
  const flags = Object.entries(command.options).map(([name, option]) => {
    const value = option.type === "string" ? " <value>" : "";
    const fallback = "default" in option && option.default !== undefined ? ` (default: ${String(option.default)})` : "";
    return `  --${name}${value}${fallback}`;
  });
  return [`openeval ${command.usage}`, "", command.summary, "", "Options:", ...flags, "  --help, -h"].join("\n");
}
