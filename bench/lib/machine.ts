// Facts about the machine and toolchain a result was measured on, printed with the table and kept in the JSON.
import { availableParallelism, cpus, totalmem } from "node:os";
import { OPENCODE_VERSION } from "../../packages/openeval/src/util/versions.ts";

export interface MachineFacts {
  date: string;
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  platform: string;
  bunVersion: string;
  bunRevision: string;
  opencodeVersion: string;
  /** The commit measured (`git describe --always --dirty`): the numbers belong to that code. */
  commit: string;
}

export function describeMachine(): MachineFacts {
  return {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    platform: `${process.platform}-${process.arch}`,
    bunVersion: Bun.version,
    bunRevision: Bun.revision.slice(0, 9),
    opencodeVersion: OPENCODE_VERSION,
    commit: describeCommit(),
  };
}

function describeCommit(): string {
  const described = Bun.spawnSync(["git", "describe", "--always", "--dirty"], {
    cwd: import.meta.dirname,
    stderr: "ignore",
  });
  return described.exitCode === 0 ? described.stdout.toString().trim() : "unknown (not a git checkout)";
}
