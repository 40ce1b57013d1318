// .ci/setup-container-engine.sh when an engine already answers but the base image is missing: it must get as far as
// building the image in its state folder (which it never created, since it did not start the engine). debootstrap
// is replaced by a stub that fails at once, so nothing is downloaded.
import { existsSync } from "node:fs";
import { chmod, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const SCRIPT = join(import.meta.dirname, "..", "..", ".ci", "setup-container-engine.sh");
const canRun = (await isEngineReachable()) && process.getuid?.() === 0;

describe.skipIf(!canRun)("setup-container-engine.sh with a running engine and no base image", () => {
  it("creates its state folder and reaches the base-image build instead of failing in mktemp", async () => {
    const bin = await makeTempDir("openeval-setup-bin-");
    await writeFile(join(bin, "debootstrap"), '#!/bin/sh\necho "stub debootstrap $*" >&2\nexit 1\n');
    await chmod(join(bin, "debootstrap"), 0o755);
    const root = join(await makeTempDir("openeval-setup-root-"), "state");
    const child = Bun.spawn(["bash", SCRIPT], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        OPENEVAL_ENGINE_ROOT: root,
        OPENEVAL_BASE_IMAGE: "openeval-test-absent-base:none",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect(stderr).not.toContain("mktemp");
    expect(stdout).toContain("an engine already answers");
    expect(stdout).toContain("debootstrap failed");
    expect(exitCode).toBe(1);
    // The stub failed; the half-made root file system was removed, its log kept.
    expect(existsSync(root)).toBe(true);
    expect(await readdir(root)).toEqual(["debootstrap.log"]);
  });
});
