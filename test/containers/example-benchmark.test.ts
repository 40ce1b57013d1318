// The example benchmark (this repository's benchmark.ts and evals/) passes with every candidate in a container,
// earlyStop checks included (tidy-build's are made from live copies out of the running container).
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildCandidateImage } from "../../packages/openeval/src/candidate/index.ts";
import { openSandboxEngine, isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const reachable = await isEngineReachable();

describe.skipIf(!reachable)("the example benchmark in containers", () => {
  it("passes with --isolation container, leaving no container behind", async () => {
    await buildCandidateImage();
    const directory = await makeTempDir("openeval-example-containers-");
    await cp(join(ROOT, "benchmark.ts"), join(directory, "benchmark.ts"));
    await cp(join(ROOT, "evals"), join(directory, "evals"), { recursive: true });
    await cp(join(ROOT, "variants"), join(directory, "variants"), { recursive: true });
    const run = await runCli(["run", "--benchmark", directory, "--isolation", "container"], { timeoutMs: 1_500_000 });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).not.toContain("not finished");
    expect(await (await openSandboxEngine("container")).list({ "openeval.sandbox": "candidate" })).toEqual([]);
  }, 1_600_000);
});
