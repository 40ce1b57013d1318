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

/** Live processes whose environment holds `entry` (`NAME=value`), e.g. a run's OPENEVAL_RUN_MARKER. */
export function processesWithEnvironment(entry: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry)) found.push(Number(pid));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}
