// Finds live processes by their command line (through /proc), to prove a run left none of its children behind.
import { readdirSync, readFileSync } from "node:fs";

export function processesMatching(pattern: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (commandLine.includes(pattern)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
