// Each image and engine error's message is written once, from its facts: the same words for the candidate and the
// verification image, each naming the command that builds it, and the run's context added without rewording.
import { describe, expect, it } from "vitest";
import { ContainerError } from "./errors.ts";

const address = "unix:///nowhere.sock";

describe("ContainerError", () => {
  it("says how to get an engine, then which image to build", () => {
    const error = new ContainerError({ code: "OE_ENGINE_UNREACHABLE", address, reason: "connect ENOENT" });
    expect(error.code).toBe("OE_ENGINE_UNREACHABLE");
    expect(error.message).toMatch(
      /^No container engine answers at unix:\/\/\/nowhere\.sock \(connect ENOENT\)\. Start Docker or Podman there, or point DOCKER_HOST at one; .*setup-container-engine\.sh` installs and starts Docker\.$/,
    );
    expect(error.within({ role: "candidate" }).message).toMatch(
      /starts Docker\. Then `npx openeval image --candidate` builds the candidate image\.$/,
    );
    expect(error.within({ role: "verification" }).cause).toBe(error);
  });

  it("tells a missing image from a stale one, in the same words for both roles", () => {
    expect(new ContainerError({ code: "OE_IMAGE_MISSING", address, role: "candidate" }).message).toBe(
      "No candidate image on unix:///nowhere.sock; build it with `npx openeval image --candidate`",
    );
    expect(new ContainerError({ code: "OE_IMAGE_MISSING", address, role: "verification" }).message).toBe(
      "No verification image on unix:///nowhere.sock; build it with `npx openeval image --verification`",
    );
    expect(
      new ContainerError({ code: "OE_IMAGE_STALE", address, role: "verification", contextHash: "0123456789abcdef" })
        .message,
    ).toBe(
      "The verification image on unix:///nowhere.sock was built from an older images/verification/ (its context now hashes to 0123456789ab); rebuild it with `npx openeval image --verification`",
    );
    expect(
      new ContainerError({ code: "OE_IMAGE_STALE", address, role: "candidate", contextHash: "0123456789abcdef" })
        .message,
    ).toContain("an older images/candidate/ or another OpenCode/Bun version");
  });

  it("names an image by id or by setting, and says to build only the images openeval builds", () => {
    expect(new ContainerError({ code: "OE_IMAGE_MISSING", address, image: "sha256:abc" }).message).toBe(
      "The image sha256:abc is not on unix:///nowhere.sock",
    );
    expect(
      new ContainerError({ code: "OE_IMAGE_MISSING", address, image: "sha256:abc", role: "verification" }).message,
    ).toBe("The image sha256:abc is not on unix:///nowhere.sock; build it with `npx openeval image --verification`");
    const named = (image: string) =>
      new ContainerError({
        code: "OE_IMAGE_MISSING",
        address,
        image,
        role: "verification",
        setting: "judge.verification.image",
      }).message;
    expect(named("openeval-verification:old")).toBe(
      "The verification image openeval-verification:old (judge.verification.image) is not on unix:///nowhere.sock; build it with `npx openeval image --verification`",
    );
    expect(named("python:3.12")).toBe(
      "The verification image python:3.12 (judge.verification.image) is not on unix:///nowhere.sock; build or pull it on that engine",
    );
  });

  it("keeps a failed build's last lines, and names an image folder that cannot be built", () => {
    expect(
      new ContainerError({
        code: "OE_IMAGE_BUILD_FAILED",
        tag: "openeval-candidate:0123",
        problem: "exit 1",
        output: ["step 1", "step 2"],
      }).message,
    ).toBe("openeval-candidate:0123 did not build: exit 1\nLast build output:\nstep 1\nstep 2");
    expect(
      new ContainerError({ code: "OE_IMAGE_BUILD_FAILED", folder: "/x", problem: "it has no Dockerfile" }).message,
    ).toBe("The image folder /x cannot be built: it has no Dockerfile");
  });

  it("tells a run which of its models were stopped, and the way around containers, around the same message", () => {
    const error = new ContainerError({ code: "OE_IMAGE_MISSING", address, role: "candidate" }).within({
      candidates: ["a/x", "b/y"],
    });
    expect(error.code).toBe("OE_IMAGE_MISSING");
    expect(error.message).toBe(
      "a/x, b/y run in containers (candidate.isolation, default for real models), and nothing was run: No candidate image on unix:///nowhere.sock; build it with `npx openeval image --candidate` Or pass `--isolation process` to run them on this machine as the current user, unsandboxed (results are labelled so).",
    );
  });
});
