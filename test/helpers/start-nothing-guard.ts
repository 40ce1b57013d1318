// Preloaded (`bun --preload`) into an openeval process by tests that prove a command starts nothing: each process it
// spawns (OpenCode, a code judge's worker, a sandboxed command, git), server it starts (the control model's) and worker
// thread is written to $OPENEVAL_GUARD_LOG and refused. The one child allowed is the worker that imports benchmark.ts
// (loading a benchmark needs it), logged as allowed so that a test can see the guard was there.
import { appendFileSync } from "node:fs";

const LOG = process.env.OPENEVAL_GUARD_LOG;
if (!LOG) throw new Error("start-nothing-guard: set OPENEVAL_GUARD_LOG to the file to log to");
const CONFIG_WORKER = "/load/config-worker.ts";

function refuse(what: string): never {
  appendFileSync(LOG!, `refused ${what}\n`);
  throw new Error(`start-nothing-guard refused ${what}`);
}

type Spawn = typeof Bun.spawn;
const spawn: Spawn = Bun.spawn;
const argvOf = (first: unknown): string[] =>
  (Array.isArray(first) ? first : (first as { cmd: string[] }).cmd).map(String);

Bun.spawn = ((...args: Parameters<Spawn>) => {
  const argv = argvOf(args[0]);
  if (!argv.some((part) => part.endsWith(CONFIG_WORKER))) refuse(`Bun.spawn ${argv.join(" ")}`);
  appendFileSync(LOG, `allowed Bun.spawn ${argv.join(" ")}\n`);
  return spawn(...args);
}) as Spawn;
Bun.spawnSync = ((first: unknown) => refuse(`Bun.spawnSync ${argvOf(first).join(" ")}`)) as typeof Bun.spawnSync;
Bun.serve = (() => refuse("Bun.serve")) as unknown as typeof Bun.serve;
globalThis.Worker = class {
  constructor(url: string | URL) {
    refuse(`Worker ${String(url)}`);
  }
} as unknown as typeof Worker;
