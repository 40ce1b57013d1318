// `openeval export <run> --output <dir>`: a static, scrubbed copy of a run's viewer that opens from disk.
import { exportRun } from "../view/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";
import { resolveRun } from "../records/index.ts";

export const exportCommand = defineCommand("export", {
  async run(flags, positionals) {
    if (typeof flags.output !== "string") throw new UsageError("outputMissing");
    if (positionals.length > 1) throw new UsageError("oneRun", { command: "export", given: positionals });
    const run = resolveRun(flags.benchmark as string, positionals[0]);
    // A counter redrawn in place on a terminal; a log or a pipe gets no `\r` lines, only the result.
    const progress = process.stderr.isTTY
      ? (done: number, total: number) => process.stderr.write(`\rexporting ${done}/${total}`)
      : undefined;
    const result = await exportRun({
      run,
      output: flags.output,
      allowArtifacts: (flags["allow-artifact"] as string[] | undefined) ?? [],
      reviewerEmails: flags["reviewer-emails"] === true,
      onProgress: progress,
    });
    if (progress) process.stderr.write("\n");
    console.log(
      `Exported run ${result.runId} (${result.files} files, ${(result.bytes / 1024 / 1024).toFixed(1)} MB). Open ${result.index}`,
    );
    const leftOut = new Set(Object.values(result.leftOut).flat());
    if (leftOut.size > 0) {
      console.log(
        `Left out the contents of ${leftOut.size} workspace file${leftOut.size === 1 ? "" : "s"} (listed in openeval-export.json); include one with --allow-artifact <path>`,
      );
    }
    return EXIT.pass;
  },
});
