// Journey: a new user starts a benchmark with `openeval init` in an empty folder, and it works as written: it
// validates, runs offline with its scripted controls, and passes calibrate on the first try; an eval added with
// `init --eval` calibrates too; a second `init` refuses, naming what exists.
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

describe("openeval init", () => {
  it("writes a benchmark that validates, runs offline and calibrates; a second init refuses", async () => {
    const directory = await makeTempDir();
    const cli = (args: string[]) => runCli(args, { cwd: directory });

    const init = await cli(["init"]);
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain(`Wrote a benchmark to ${directory}:\n  .gitignore\n  README.md\n  benchmark.ts\n`);
    expect(init.stdout).toMatch(/^How to write good evals: \S+\/docs\/writing-evals\.md$/m);
    expect(init.stdout).toMatch(/^For a coding agent writing evals: \S+\/llms\.txt$/m);

    const validate = await cli(["validate"]);
    expect(validate.exitCode, validate.stderr).toBe(0);
    expect(validate.stdout).toContain(
      "fix-spelling: judge.ts; criteria: fixed_spelling (judge.ts), focused_change (judge.ts); controls: negative, positive",
    );
    expect(validate.stdout).toContain(
      "summarize-meeting: judge.md; criteria: decision (judge.md), owners (judge.md); controls: negative, positive",
    );

    const run = await cli(["run"]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/control\/positive \(control\)\s+100\.0%/);
    expect(run.stdout).toMatch(/control\/negative \(control\)\s+25\.0%/);
    // Progress goes to stderr: the rubric eval was graded by the scripted judge from its controls' verdicts.
    expect(run.stderr).toContain("judge     summarize-meeting × control/positive #1: decision=1 owners=1");
    expect(run.stdout).toContain("Verdict: nothing gated");

    const calibrate = await cli(["calibrate"]);
    expect(calibrate.exitCode, calibrate.stdout + calibrate.stderr).toBe(0);
    expect(calibrate.stdout).toContain("Every judge passed calibration.");
    // Calibrate on its own, in a run of its own: it plays the controls itself rather than reusing run's work.
    const fresh = await cli(["calibrate", "--new"]);
    expect(fresh.exitCode, fresh.stdout + fresh.stderr).toBe(0);
    expect(fresh.stderr).toMatch(/^candidate fix-spelling × control\/positive #1: completed/m);
    expect(fresh.stdout).toContain("pass      fix-spelling × control/negative (negative): fixed_spelling=0.00");
    expect(fresh.stdout).toContain("Every judge passed calibration.");

    const added = await cli(["init", "--eval", "release-notes", "--rubric"]);
    expect(added.exitCode, added.stderr).toBe(0);
    const withEval = await cli(["calibrate"]);
    expect(withEval.exitCode, withEval.stdout + withEval.stderr).toBe(0);
    expect(withEval.stdout).toContain(
      "pass      release-notes × control/positive (positive): decision=1.00 owners=1.00",
    );

    const before = await readdir(directory, { recursive: true });
    const again = await cli(["init"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(
      `error OE_INIT_WOULD_OVERWRITE: ${directory} already holds README.md, benchmark.ts, .gitignore, evals; init overwrites nothing. ` +
        "To add an eval to this benchmark: `openeval init <dir> --eval <id>`; for a new benchmark, name a new folder: `openeval init <dir>`\n",
    );
    expect((await readdir(directory, { recursive: true })).sort()).toEqual(before.sort());
  });
});
