// CPU time this process and its reaped children have used (from /proc/self/stat), so that a throughput figure can
// be read against the CPU it took: on a loaded machine wall-clock rates fall, CPU per unit of work does not.
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

export interface CpuTime {
  /** user + system of this process, ms. */
  selfMs: number;
  /** user + system of its children that have exited and been waited for, ms. */
  childrenMs: number;
}

export function readCpuTime(): CpuTime {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after "(comm)": state is field 3; utime, stime, cutime, cstime are fields 14–17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { selfMs: ms(fields[11]! + fields[12]!), childrenMs: ms(fields[13]! + fields[14]!) };
}
