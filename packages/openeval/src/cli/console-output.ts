// The process's own streams, as the reporters write to them.
import type { ReporterOutput } from "../report/index.ts";

export const CONSOLE_OUTPUT: ReporterOutput = {
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
  terminal: process.stderr,
};
