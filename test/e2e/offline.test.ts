// Journey: a benchmark kept outside this repository, with no node_modules of its own, whose judge.ts imports
// `openeval` and `openeval/scorers`, is loaded with no DNS query and no connection beyond loopback: openeval
// resolves to this harness, and Bun never auto-installs a package from the registry.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { version as HARNESS_VERSION } from "../../packages/openeval/package.json";
import { BIN } from "../helpers/cli.ts";
import { minimalBenchmark, userBenchmark, writeTree } from "../helpers/fixtures.ts";
import { offlineUnavailable, runOffline } from "../helpers/offline.ts";

const LIBRARY = join(import.meta.dirname, "..", "..", "packages", "openeval", "src", "index.ts");
const judgeImportingLeftPad = () =>
  minimalBenchmark({
    "evals/answer/judge.ts": `import leftPad from "left-pad";\nexport default () => ({ scores: { ok: leftPad("a", 2) === " a" } });\n`,
  });

describe.skipIf(offlineUnavailable !== null)(
  `offline: a benchmark outside the repository (${offlineUnavailable ?? "network namespace"})`,
  () => {
    it("validate checks it, resolving openeval and openeval/scorers to this harness, and asks no registry", async () => {
      const directory = await writeTree(userBenchmark());
      const result = await runOffline(["node", BIN, "validate", "--benchmark", directory]);
      expect(result.attempts).toEqual([]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        "answer: judge.md + judge.ts; criteria: brief (judge.md), exact (judge.ts); controls: positive",
      );
    });

    it("the library asks no registry either, in a program that Bun runs with auto-install on", async () => {
      const directory = await writeTree(judgeImportingLeftPad());
      const program = `import { loadBenchmark } from ${JSON.stringify(LIBRARY)};
await loadBenchmark(${JSON.stringify(directory)}).catch((error) => console.log(error.message));
`;
      const result = await runOffline([process.execPath, "-e", program], { cwd: directory });
      expect(result.attempts).toEqual([]);
      expect(result.stdout, result.stderr).toContain(
        `evals/answer/judge.ts: imports "left-pad" (imported by judge.ts), which cannot be resolved`,
      );
    });

    it("refuses a judge.ts whose package is not installed there, naming it, without looking it up in a registry", async () => {
      const directory = await writeTree(judgeImportingLeftPad());
      const result = await runOffline(["node", BIN, "validate", "--benchmark", directory]);
      expect(result.attempts).toEqual([]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(
        `evals/answer/judge.ts: imports "left-pad" (imported by judge.ts), which cannot be resolved from ${directory}/evals/answer; install it in the benchmark folder (npm install left-pad)`,
      );
    });
  },
);
