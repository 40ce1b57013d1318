// CPU time this process and its reaped children have used (from /proc/self/stat), so that a throughput figure can
// be read against the CPU it took: on a loaded machine wall-clock rates fall, CPU per unit of work does not. And the
// CPU the rest of the machine used meanwhile, so that a wall-clock sample can be told apart from a disturbed one.
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;
const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;

export interface CpuTime {
  /** user + system of this process, ms. */
  selfMs: number;
  /** user + system of its children that have exited and been waited for, ms. */
  childrenMs: number;
}

export function readCpuTime(): CpuTime {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after "(comm)": state is field 3; utime, stime, cutime, cstime are fields 14–17.
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  return { selfMs: ms(fields[11]! + fields[12]!), childrenMs: ms(fields[13]! + fields[14]!) };
}

/** Busy CPU time of the whole machine, all cores, ms: user, nice, system, irq, softirq and steal of /proc/stat (not idle, not iowait). */
export function readMachineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n", 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ms(user! + nice! + system! + irq! + softirq! + steal!);
}

/**
 * Runs `fn` and returns, beside its result, the load the rest of the machine put on it meanwhile, in cores: the
 * machine's busy time less this process's and its reaped children's, over the wall time. A child still running at
 * the end (a code-judge worker kept warm) counts as the rest: a few ms.
 */
export async function withOtherLoad<T>(fn: () => Promise<T>): Promise<{ value: T; otherCores: number }> {
  const [start, busy, own] = [performance.now(), readMachineBusyMs(), ownMs(readCpuTime())];
  const value = await fn();
  const otherMs = readMachineBusyMs() - busy - (ownMs(readCpuTime()) - own);
  return { value, otherCores: Math.max(0, otherMs) / (performance.now() - start) };
}

const ownMs = (cpu: CpuTime) => cpu.selfMs + cpu.childrenMs;
