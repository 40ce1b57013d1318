// `openeval image`: with no flag it builds (or finds) both sandbox images and prints their immutable ids;
// `--candidate` only the candidate image.
import { describe, expect, it } from "vitest";
import { isEngineReachable } from "../../packages/openeval/src/sandbox/index.ts";
import { runCli } from "../helpers/cli.ts";

const reachable = await isEngineReachable();

describe.skipIf(!reachable)("openeval image", () => {
  it("builds both images without a flag, and only the candidate image with --candidate", async () => {
    const both = await runCli(["image", "--json"], { timeoutMs: 1_800_000 });
    expect(both.exitCode, both.stderr).toBe(0);
    const images = JSON.parse(both.stdout) as Record<string, { imageId: string; tag: string }>;
    expect(Object.keys(images).sort()).toEqual(["candidate", "verification"]);
    expect(images.candidate!.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(images.candidate!.tag).toMatch(/^openeval-candidate:[0-9a-f]{12}$/);
    expect(images.verification!.tag).toMatch(/^openeval-verification:[0-9a-f]{12}$/);
    const candidate = await runCli(["image", "--candidate"], { timeoutMs: 600_000 });
    expect(candidate.exitCode, candidate.stderr).toBe(0);
    expect(candidate.stdout).toContain(`Candidate image ${images.candidate!.tag}\n  id: ${images.candidate!.imageId}`);
    expect(candidate.stdout).not.toContain("Verification image");
  }, 1_900_000);
});
