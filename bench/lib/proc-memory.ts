// Memory of one process, from Linux's /proc/<pid>/status: its resident set now (VmRSS) and its peak so far (VmHWM).
// Per process, so a server or runner measured in its own process is not mixed with the bench's own memory.
import { readFileSync } from "node:fs";

export interface ProcessMemory {
  rssMiB: number;
  peakRssMiB: number;
}

/** Null when the process is gone or /proc is not there (not Linux). */
export function readProcessMemory(pid: number | "self"): ProcessMemory | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: Math.round(kib("VmRSS") / 102.4) / 10, peakRssMiB: Math.round(kib("VmHWM") / 102.4) / 10 };
}
