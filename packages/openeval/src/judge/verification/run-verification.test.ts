// Fast checks that need no image: requests are validated before any engine is contacted, an unreachable engine
// says what to do, and (where an engine answers) a missing image names the command that builds it.
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveVerificationImage } from "./build-image.ts";
import { ContainerError } from "../../sandbox/index.ts";
import { VerificationError } from "./errors.ts";
import { runVerification } from "./run-verification.ts";
import { DEFAULT_VERIFICATION_LIMITS } from "./verification-api.ts";
import { constructedEvidence, engineReachable, engineSuite, makeTempDirectory } from "./fixtures/engine.ts";

const NOWHERE = { socketPath: "/nonexistent/openeval-test.sock" };

async function attempt(request: Parameters<typeof runVerification>[0]["request"]) {
  const evidence = await constructedEvidence({ final: { "a.txt": "a" } });
  return runVerification({
    image: "sha256:none",
    evidence,
    request,
    limits: DEFAULT_VERIFICATION_LIMITS,
    labels: { judgeRun: "jr_test" },
    directory: tmpdir(),
    engine: NOWHERE,
  }).catch((error: unknown) => error);
}

describe("runVerification without an engine", () => {
  it.each([
    [{ timeoutMs: 1000, commands: [] }, /commands: give at least one command/],
    [{ timeoutMs: 1000, commands: [[]] }, /commands\[0\]: an argv needs at least the program/],
    [{ timeoutMs: 0, commands: [["true"]] }, /timeoutMs/],
    [{ timeoutMs: 1000, commands: [["true"]], artifacts: ["../outside.txt"] }, /leaves the workspace/],
    [{ timeoutMs: 1000, commands: [["true"]], cwd: "/etc" }, /it is absolute/],
    [{ timeoutMs: 1000, commands: [["true"]], files: { "../../x": "y" } }, /leaves the workspace/],
    [{ timeoutMs: 1000, commands: [["true"]], shell: true }, /unknown key "shell"/],
  ])("rejects an invalid request before contacting an engine: %j", async (request, message) => {
    const error = await attempt(request as never);
    expect(error).toBeInstanceOf(VerificationError);
    expect((error as VerificationError).code).toBe("OE_INVALID_REQUEST");
    expect((error as Error).message).toMatch(message);
  });

  it("says how to get an engine when none answers", async () => {
    const error = await attempt({ timeoutMs: 1000, commands: [["true"]] });
    expect((error as ContainerError).code).toBe("OE_ENGINE_UNREACHABLE");
    expect((error as Error).message).toContain("No container engine answers at unix:///nonexistent/openeval-test.sock");
    expect((error as Error).message).toContain("setup-container-engine.sh");
    expect((error as Error).message).toContain(
      "Then `npx openeval image --verification` builds the verification image.",
    );
  });
});

describe.skipIf(!engineReachable)(engineSuite("resolveVerificationImage on a running engine"), () => {
  it("names the command to run when no image matches the folder", async () => {
    const directory = await makeTempDirectory("openeval-image-");
    await writeFile(join(directory, "Dockerfile"), `FROM debian:bookworm-slim\n# ${Date.now()}\n`);
    const error = await resolveVerificationImage({ contextDirectory: directory }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContainerError);
    expect(["OE_IMAGE_MISSING", "OE_IMAGE_STALE"]).toContain((error as ContainerError).code);
    expect((error as Error).message).toContain("npx openeval image --verification");
  });
});
