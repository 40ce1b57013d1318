// The judge run's archive of evidence queries and submissions: one JSON line per tool call (arguments, accepted or
// not, the error the model got), plus `ready` and `fatal` lines that tell the grader whether the server came up.
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export type CallLogEntry =
  | { type: "ready"; at: string; pid: number }
  | { type: "fatal"; at: string; error: string }
  | {
      type: "call";
      at: string;
      tool: string;
      arguments: unknown;
      accepted: boolean;
      error?: string;
      elapsedMs: number;
    };

/** Appends synchronously: a line is on disk before the model sees the answer it describes. */
export function appendCallLog(file: string, entry: CallLogEntry): void {
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** Lines that do not parse are skipped: a crash mid-write must not hide the lines before it. */
export function readCallLog(file: string): CallLogEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as CallLogEntry];
      } catch {
        return [];
      }
    });
}
