// `openeval export <run> --output <dir> [--format viewer|atif]`: a static, scrubbed copy of a run's viewer that opens
// from disk, or each eval run's trajectory in Harbor's ATIF.
import { exportAtif, exportRun } from "../view/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";
import { resolveRun } from "../records/index.ts";

const FORMATS = ["viewer", "atif"] as const;

export const exportCommand = defineCommand("export", {
  async run(flags, positionals) {
    const format = flags.format ?? "viewer";
    if (!(FORMATS as readonly string[]).includes(format))
      throw new UsageError("valueInvalid", { flag: "format", takes: FORMATS.join(" or "), got: format });
    if (typeof flags.output !== "string") throw new UsageError("outputMissing");
    if (positionals.length > 1) throw new UsageError("oneRun", { command: "export", given: positionals });
    if (format === "atif") {
      // Trajectories hold no workspace files and no reviews: those flags belong to the viewer export.
      const viewerOnly =
        flags["allow-artifact"] !== undefined ? "allow-artifact" : flags["reviewer-emails"] ? "reviewer-emails" : null;
      if (viewerOnly) throw new UsageError("flagNeedsFormat", { flag: viewerOnly, format: "viewer" });
    }
    const run = resolveRun(flags.benchmark as string, positionals[0]);
    // A counter redrawn in place on a terminal; a log or a pipe gets no `\r` lines, only the result.
    const progress = process.stderr.isTTY
      ? (done: number, total: number) => process.stderr.write(`\rexporting ${done}/${total}`)
      : undefined;
    if (format === "atif") {
      const result = await exportAtif({ run, output: flags.output, onProgress: progress });
      if (progress) process.stderr.write("\n");
      console.log(
        `Exported ${result.trajectories.length} trajectories (ATIF) of run ${result.runId} to ${result.directory}`,
      );
      for (const { evalRunId, reason } of result.skipped) console.log(`Left out eval run ${evalRunId}: ${reason}`);
      return EXIT.pass;
    }
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
