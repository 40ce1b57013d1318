// `openeval view --port 0` for the browser tests, until it prints its URL; and `openeval export` of a run.
import { join } from "node:path";

const RUN_COMMAND = join(import.meta.dirname, "run-command.ts");

export async function startViewer(
  directory: string,
  extra: string[] = [],
): Promise<{ url: string; process: ReturnType<typeof Bun.spawn> }> {
  const child = Bun.spawn([process.execPath, RUN_COMMAND, "view", "--benchmark", directory, "--port", "0", ...extra], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let output = "";
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    output += new TextDecoder().decode(value);
    const match = /openeval viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
    if (match) return { url: match[1]!, process: child };
  }
  child.kill();
  throw new Error(`openeval view did not start: ${output}${await new Response(child.stderr).text()}`);
}

/** `openeval export <runId> --benchmark <benchmark> --output <output> [extra]`; throws with its stderr when it fails. */
export function exportRun(runId: string, benchmark: string, output: string, extra: string[] = []): void {
  const exporting = Bun.spawnSync(
    [process.execPath, RUN_COMMAND, "export", runId, "--benchmark", benchmark, "--output", output, ...extra],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (exporting.exitCode !== 0) throw new Error(`openeval export failed: ${exporting.stderr.toString()}`);
}
