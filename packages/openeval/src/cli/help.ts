// `--help` text: the command overview and each command's usage, summary and options, wrapped to the terminal's
// width (80 when stdout is not a terminal) so that no line is cut or wrapped mid-word by the terminal.
import { terminalWidth } from "../util/terminal-width.ts";
import type { CommandSpec, Option } from "./command.ts";

/** Labels longer than this put their description on the next line, so that descriptions keep room. */
const MAX_LABEL = 28;
/** Narrower than this beside the labels, descriptions go under them instead. */
const MIN_TEXT = 30;

/** The width to wrap help at for a stream: its terminal's width, else 80. */
export function helpWidth(stream: { columns?: number }): number {
  return terminalWidth(stream.columns);
}

/** `openeval --help`: every command with the first sentence of its summary. */
export function formatOverview(commands: Readonly<Record<string, CommandSpec>>, width: number): string {
  return [
    "openeval — benchmark harness for coding agents",
    "",
    "Usage: openeval <command> [options]",
    "",
    "Commands:",
    ...formatRows(
      Object.entries(commands).map(([name, command]) => [name, firstSentence(command.summary)]),
      width,
    ),
    "",
    ...wrap("Run `openeval <command> --help` for a command's options; `openeval --version` shows the versions.", width),
  ].join("\n");
}

/** `openeval <command> --help`: usage, summary and one line per option (wrapped when the terminal is narrow); a
 * repeatable option is marked `...`, as in usage lines. */
export function formatHelp(command: CommandSpec, width: number): string {
  const usage = wrap(`Usage: openeval ${command.usage}`, width - 4).map((line, index) =>
    index === 0 ? line : `    ${line}`,
  );
  const options = Object.entries(command.options).map(([flag, option]): [string, string] => [
    `--${flag}${option.type === "string" ? ` <${option.value ?? "value"}>` : ""}${option.multiple ? "..." : ""}`,
    describe(option),
  ]);
  return [
    ...usage,
    "",
    ...wrap(command.summary, width),
    "",
    "Options:",
    ...formatRows([...options, ["--help, -h", "Show this help"]], width),
  ].join("\n");
}

/** The description, with the default of a string option (a boolean's is off). */
function describe(option: Option): string {
  return option.type === "string" && option.default !== undefined
    ? `${option.description} (default: ${String(option.default)})`
    : option.description;
}

/** Two columns, label and text; the text wraps under itself, or under the label when the terminal is narrow. */
function formatRows(rows: readonly (readonly [string, string])[], width: number): string[] {
  const column = 2 + Math.min(MAX_LABEL, Math.max(...rows.map(([label]) => label.length))) + 2;
  if (width - column < MIN_TEXT)
    return rows.flatMap(([label, text]) => [`  ${label}`, ...wrap(text, width - 6).map((line) => `      ${line}`)]);
  return rows.flatMap(([label, text]) => {
    const lines = wrap(text, width - column).map((line) => `${" ".repeat(column)}${line}`);
    if (2 + label.length + 2 > column) return [`  ${label}`, ...lines];
    return [`  ${label.padEnd(column - 2)}${lines[0]!.trimStart()}`, ...lines.slice(1)];
  });
}

/**
 * Greedy word wrap to `width` columns (code points). A bracketed group of a usage line (`[--run <dir> | --new]`,
 * `<run-dir | run-id>`) is one word; a word longer than the width gets a line of its own.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.match(/\[[^\]]*\]\S*|<[^>]*>\S*|\S+/g) ?? []) {
    if (line && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The summary's first sentence: its line in the overview. */
function firstSentence(summary: string): string {
  return /^.*?[.!?](?=\s|$)/s.exec(summary)?.[0] ?? summary;
}
