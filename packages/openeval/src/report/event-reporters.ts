// The reporters of a runner's events, by name: the one place a command's progress display is chosen and made.
// People read stderr (plain lines, or a redrawn status line on a terminal); scripts read stdout (`--json`), which
// no other reporter writes to, so a script's stdout holds only what it asked for.
import type { RunnerEvent } from "../summary/index.ts";
import { createJsonReporter } from "./json-reporter.ts";
import { createPlainReporter } from "./plain-reporter.ts";
import { createTtyProgress } from "./tty-progress.ts";

export type EventReporter = (event: RunnerEvent) => void;

/** Where a reporter writes. */
export interface ReporterOutput {
  /** One line for scripts, on stdout. */
  stdout(line: string): void;
  /** One line for people, on stderr. */
  stderr(line: string): void;
  /** stderr when it is a terminal: the tty reporter redraws its status line there. */
  terminal?: { write(text: string): unknown; columns?: number };
}

const EVENT_REPORTERS = {
  plain: (output) => createPlainReporter(output.stderr),
  tty: (output) => {
    if (!output.terminal) throw new Error("The tty reporter needs a terminal; choose it with chooseEventReporter");
    return createTtyProgress(output.terminal);
  },
  json: (output) => createJsonReporter(output.stdout),
} satisfies Record<string, (output: ReporterOutput) => EventReporter>;

export type EventReporterName = keyof typeof EVENT_REPORTERS;
export const EVENT_REPORTER_NAMES = Object.keys(EVENT_REPORTERS) as EventReporterName[];

/** `--json` asks for JSON lines; otherwise a terminal gets the live status line and anything else plain lines. */
export function chooseEventReporter(options: { json: boolean; terminal: boolean }): EventReporterName {
  if (options.json) return "json";
  return options.terminal ? "tty" : "plain";
}

export function createEventReporter(name: EventReporterName, output: ReporterOutput): EventReporter {
  return EVENT_REPORTERS[name](output);
}
