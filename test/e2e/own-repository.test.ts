// Journey: openeval used from a user's own repository through a `file:` dependency on this clone's package. npm
// links it offline (nothing to download), and `npx openeval validate` checks the project's benchmark, whose
// judge.ts imports `openeval` and `openeval/scorers`, with no connection beyond loopback. The run of this way and
// the packed tarball are in test/e2e-slow/own-repository.test.ts.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { userBenchmark, writeTree } from "../helpers/fixtures.ts";
import { NPM_QUIET, offlineUnavailable, runOffline } from "../helpers/offline.ts";

const PACKAGE = join(import.meta.dirname, "..", "..", "packages", "openeval");

describe.skipIf(offlineUnavailable !== null)(
  `openeval in your own repository (${offlineUnavailable ?? "offline"})`,
  () => {
    it("a file: dependency on packages/openeval installs offline, and npx openeval validate checks the project's benchmark", async () => {
      const manifest = { name: "my-project", private: true, devDependencies: { openeval: `file:${PACKAGE}` } };
      const project = await writeTree({ ...userBenchmark(), "package.json": JSON.stringify(manifest, null, 2) });
      const install = await runOffline(["npm", "install", "--offline"], { cwd: project, env: NPM_QUIET });
      expect(install.exitCode, install.stderr).toBe(0);
      const validate = await runOffline(["npx", "openeval", "validate"], { cwd: project, env: NPM_QUIET });
      expect(validate.attempts).toEqual([]);
      expect(validate.exitCode, validate.stderr).toBe(0);
      expect(validate.stdout).toContain(`Benchmark ${project.split("/").pop()} (${project})`);
      expect(validate.stdout).toContain(
        "answer: judge.md + judge.ts; criteria: brief (judge.md), exact (judge.ts); controls: positive",
      );
    });
  },
);
