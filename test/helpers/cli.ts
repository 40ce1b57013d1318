// Runs the real `openeval` command (the npm bin shim, under the project's Bun) and captures its output.
import { join } from "node:path";

export const BIN = join(import.meta.dirname, "..", "..", "packages", "openeval", "bin", "openeval");

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runCommand(["node", BIN, ...args], options);
}

/** Runs any command as runCli runs `openeval` (e.g. the `openeval` an npm install linked into a project). */
export async function runCommand(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const child = Bun.spawn(argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  // Only a guard against a hung command, under the suites' own hang guards: load must never reach it.
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 540_000);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}
