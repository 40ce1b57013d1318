// Journey: progress redrawn in place (`\r`) goes to a terminal only; a log or a pipe gets plain lines.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeViewerFixture, type ViewerFixture } from "../../packages/openeval/src/view/fixtures/viewer-run.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const CLI_MAIN = join(import.meta.dirname, "..", "..", "packages", "openeval", "src", "cli", "main.ts");

let fixture: ViewerFixture;

beforeAll(async () => {
  fixture = await writeViewerFixture(await makeTempDir(), { evals: 2, models: ["provider/alpha"], repetitions: 1 });
});

describe("export progress", () => {
  it("writes no carriage return to a pipe", async () => {
    const result = await runCli(["export", fixture.runDirectory, "--output", join(await makeTempDir(), "export")]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Exported run ${fixture.runId}`);
    expect(result.stderr).not.toContain("\r");
  });

  it("redraws a counter in place on a terminal", async () => {
    // util-linux `script` runs the command on a pseudo-terminal and copies what it writes.
    const command = [
      process.execPath,
      CLI_MAIN,
      "export",
      fixture.runDirectory,
      "--output",
      join(await makeTempDir(), "export"),
    ]
      .map((part) => `'${part}'`)
      .join(" ");
    const child = Bun.spawn(["script", "--quiet", "--return", "--command", command, "/dev/null"], {
      stdout: "pipe",
      stderr: "pipe",
      stdin: "ignore",
    });
    const [output, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(exitCode, output).toBe(0);
    expect(output).toMatch(/\rexporting 1\/\d+\rexporting 2\/\d+/);
  });
});
