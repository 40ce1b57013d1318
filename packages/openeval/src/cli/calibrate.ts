// `openeval calibrate`: run every eval's controls and say whether each judge tells positive from negative; with
// --against-reviews, measure each judge against the people who reviewed the run's scores instead (runs nothing).
import { calibrateBenchmark } from "../run/index.ts";
import { createEventReporter, formatReviewCalibration } from "../report/index.ts";
import { resolveRun } from "../records/index.ts";
import { calibrateAgainstReviews } from "../summary/index.ts";
import { defineCommand } from "./commands.ts";
import { CONSOLE_OUTPUT } from "./console-output.ts";
import { EXIT, UsageError } from "./errors.ts";

export const calibrateCommand = defineCommand("calibrate", {
  async run(flags) {
    if (flags["against-reviews"]) {
      if (flags.new) throw new UsageError("againstReviewsNew");
      const calibration = await calibrateAgainstReviews({ run: resolveRun(flags.benchmark, flags.run) });
      console.log(flags.json ? JSON.stringify(calibration) : formatReviewCalibration(calibration));
      if (calibration.judges.some((judge) => judge.flagged)) return EXIT.verdictFail;
      return calibration.labels > 0 && calibration.problems.length === 0 ? EXIT.pass : EXIT.incomplete;
    }
    const report = await calibrateBenchmark({
      benchmark: flags.benchmark as string,
      run: flags.run as string | undefined,
      new: flags.new as boolean,
      onEvent: flags.json ? undefined : createEventReporter("plain", CONSOLE_OUTPUT),
    });
    if (flags.json) console.log(JSON.stringify(report));
    else {
      for (const item of report.checks) {
        const criteria = Object.entries(item.criteria)
          .map(([id, value]) => `${id}=${value === null ? "unresolved" : value.toFixed(2)}`)
          .join(" ");
        console.log(
          `${item.status.padEnd(9)} ${item.evalId} × control/${item.control} (${item.expectation}): ${criteria}${item.problem ? ` — ${item.problem}` : ""}`,
        );
      }
      if (report.broken.length > 0) console.log(`Broken tasks: ${report.broken.join(", ")}`);
      console.log(
        report.suspect.length > 0
          ? `Suspect judges: ${report.suspect.join(", ")}`
          : report.broken.length > 0
            ? "The other judges passed calibration."
            : report.complete
              ? "Every judge passed calibration."
              : "Calibration is incomplete: some controls are not judged.",
      );
    }
    if (report.suspect.length > 0 || report.broken.length > 0) return EXIT.verdictFail;
    return report.complete ? EXIT.pass : EXIT.incomplete;
  },
});
