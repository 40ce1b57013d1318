import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/helpers/fixtures.ts";
import { imageContextDirectory } from "./images-directory.ts";

describe("imageContextDirectory", () => {
  it("is the repository's images/ in a clone", () => {
    expect(imageContextDirectory("candidate")).toBe(
      join(import.meta.dirname, "..", "..", "..", "..", "images", "candidate"),
    );
  });

  it("is the package's own images/ where a packed tarball is installed", async () => {
    const project = await writeTree({ "node_modules/openeval/images/verification/Dockerfile": "FROM scratch\n" });
    expect(imageContextDirectory("verification", join(project, "node_modules", "openeval"))).toBe(
      join(project, "node_modules", "openeval", "images", "verification"),
    );
  });
});
