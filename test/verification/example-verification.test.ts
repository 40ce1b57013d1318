// The verification example through the whole pipeline: real OpenCode candidates (controls) write a page, and the
// judge checks it with Chromium in the sandboxed container. Skips, saying why, without an engine.
import { existsSync, readdirSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const engine = await isEngineReachable();
if (!engine)
  console.warn(
    "test/verification: no container engine reachable; run `bash .ci/setup-container-engine.sh` (as root) to run these tests",
  );

describe.skipIf(!engine)("examples/verification through openeval run", () => {
  it("passes the positive control and fails the negative one, keeping receipts and the screenshot", async () => {
    const directory = await makeTempDir();
    await cp(join(ROOT, "examples", "verification"), directory, { recursive: true });
    const result = await runCli(["run", "--benchmark", directory], { timeoutMs: 900_000 });
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/control\/positive \(control\)\s+100\.0%/);
    expect(result.stdout).toMatch(/control\/negative \(control\)\s+(\d|[1-9]\d)\.\d%/);
    const run = join(directory, "results", readdirSync(join(directory, "results"))[0]!);
    const receipts = readdirSync(join(run, "judge-runs"), { recursive: true, encoding: "utf8" }).filter((path) =>
      path.endsWith("receipt.json"),
    );
    expect(receipts.length).toBeGreaterThanOrEqual(2);
    expect(
      receipts.some((path) =>
        existsSync(join(run, "judge-runs", path.replace("receipt.json", join("artifacts", "shot.png")))),
      ),
    ).toBe(true);
  });
});
