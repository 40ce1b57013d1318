// Journeys: openeval used for a benchmark kept in a user's own repository, each way the docs describe
// (docs/using-openeval.md), run end to end with the control models and no connection beyond loopback. The benchmark's
// judge.ts imports `openeval` and `openeval/scorers`; its eval is graded by judge.ts and by the scripted rubric judge.
// A `file:` dependency runs exactly the clone's files as `--benchmark` does, so its validate (test/e2e) is enough.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../../packages/openeval/src/summary/index.ts";
import { BIN } from "../helpers/cli.ts";
import { userBenchmark, writeTree } from "../helpers/fixtures.ts";
import { writeLockedProject } from "../helpers/npm-project.ts";
import { NPM_QUIET, offlineUnavailable, runOffline, type OfflineResult } from "../helpers/offline.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const LONG = { timeoutMs: 540_000 };

/** The run's summary from `run --json` (JSON Lines): each model's score. */
function scores(run: OfflineResult): [string, number | null][] {
  const events = run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; summary?: RunSummary });
  const summary = events.find((event) => event.type === "run.finished")?.summary;
  if (!summary) throw new Error(`no run.finished event; stderr:\n${run.stderr}`);
  return summary.models.map((row) => [row.model, row.score.value]);
}

describe.skipIf(offlineUnavailable !== null)(
  `openeval in your own repository (${offlineUnavailable ?? "offline"})`,
  () => {
    it("--benchmark <dir> from the clone: a benchmark elsewhere, with no node_modules, runs and passes", async () => {
      const directory = await writeTree(userBenchmark());
      const run = await runOffline(["node", BIN, "run", "--benchmark", directory, "--json"], LONG);
      expect(run.attempts).toEqual([]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(scores(run)).toEqual([["control/positive", 100]]);
    });

    it("a packed tarball (npm run pack): installed from its lock, the project's benchmark validates, runs and exports, and init writes a new one", async () => {
      const project = await writeTree(userBenchmark());
      const pack = await runOffline(["npm", "run", "pack", "--", project], { cwd: ROOT, env: NPM_QUIET });
      expect(pack.exitCode, pack.stderr).toBe(0);
      const tarball = pack.stdout.trim().split("\n").pop()!;
      expect(tarball).toBe(join(project, "openeval-0.1.0.tgz"));
      await writeLockedProject(project, tarball);
      const install = await runOffline(["npm", "ci", "--offline"], { cwd: project, env: NPM_QUIET, ...LONG });
      expect(install.exitCode, install.stderr).toBe(0);
      expect(install.stderr, "every install script is decided in allowScripts").not.toContain("install-scripts");
      // What `openeval image` builds from comes with the package.
      for (const image of ["candidate", "verification", "environment"])
        expect(existsSync(join(project, "node_modules", "openeval", "images", image, "Dockerfile"))).toBe(true);

      const npx = (args: string[]) =>
        runOffline(["npx", "openeval", ...args], { cwd: project, env: NPM_QUIET, ...LONG });
      const validate = await npx(["validate"]);
      expect(validate.attempts).toEqual([]);
      expect(validate.exitCode, validate.stderr).toBe(0);
      expect(validate.stdout).toContain(
        "answer: judge.md + judge.ts; criteria: brief (judge.md), exact (judge.ts); controls: positive",
      );
      const run = await npx(["run", "--json"]);
      expect(run.attempts).toEqual([]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(scores(run)).toEqual([["control/positive", 100]]);
      // The viewer's front end is bundled from the tarball's copy of it.
      const exported = await npx(["export", "--output", join(project, "exported")]);
      expect(exported.attempts).toEqual([]);
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(existsSync(join(project, "exported", "app.js"))).toBe(true);
      // `npx openeval init` from the installed package: its templates and the guides it points to come with it. This
      // folder holds a benchmark already, so a plain init refuses; a new folder gets one that validates.
      const refused = await npx(["init"]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain(`error OE_INIT_WOULD_OVERWRITE: ${project} already holds benchmark.ts, evals;`);
      const init = await npx(["init", "starter"]);
      expect(init.attempts).toEqual([]);
      expect(init.exitCode, init.stderr).toBe(0);
      const installed = join(project, "node_modules", "openeval");
      expect(init.stdout).toContain(`How to write good evals: ${join(installed, "docs", "writing-evals.md")}\n`);
      expect(existsSync(join(installed, "docs", "writing-evals.md")) && existsSync(join(installed, "llms.txt"))).toBe(
        true,
      );
      const starter = await npx(["validate", "--benchmark", "starter"]);
      expect(starter.exitCode, starter.stderr).toBe(0);
      expect(starter.stdout).toContain("fix-spelling: judge.ts; criteria: fixed_spelling (judge.ts)");
    });
  },
);
