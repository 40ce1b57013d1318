// Journey: `openeval export --format atif` writes a run's trajectories in Harbor's format, and a format or a flag the
// command cannot use is refused, naming what it takes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AtifTrajectorySchema } from "../../packages/openeval/src/recording/index.ts";
import { writeViewerFixture } from "../../packages/openeval/src/view/fixtures/viewer-run.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

describe("openeval export --format atif", () => {
  it("writes one valid trajectory per eval run and says where", async () => {
    const fixture = await writeViewerFixture(await makeTempDir(), {
      evals: 1,
      models: ["provider/alpha"],
      repetitions: 2,
    });
    const output = join(await makeTempDir(), "atif");
    const result = await runCli(["export", fixture.runDirectory, "--format", "atif", "--output", output]);
    expect([result.exitCode, result.stderr]).toEqual([0, ""]);
    expect(result.stdout).toBe(`Exported 2 trajectories (ATIF) of run ${fixture.runId} to ${output}\n`);
    for (const evalRun of fixture.evalRuns)
      AtifTrajectorySchema.parse(JSON.parse(readFileSync(join(output, evalRun.id, "trajectory.json"), "utf8")));
  });

  it("refuses an unknown format, naming the valid ones", async () => {
    const result = await runCli(["export", "--format", "harbor", "--output", "out"]);
    expect([result.exitCode, result.stderr]).toEqual([
      2,
      'error OE_USAGE: --format takes viewer or atif; got "harbor"\n',
    ]);
  });

  it("refuses the viewer export's flags with --format atif", async () => {
    const result = await runCli(["export", "--format", "atif", "--output", "out", "--allow-artifact", "src"]);
    expect([result.exitCode, result.stderr]).toEqual([
      2,
      "error OE_USAGE: --allow-artifact applies to --format viewer only; leave it out, or export with --format viewer\n",
    ]);
  });
});
