import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VerificationError } from "./errors.ts";
import { makeTempDirectory } from "./fixtures/engine.ts";
import { ContainerError, hashContext, readContextFiles } from "../../sandbox/index.ts";
import { DEFAULT_CONTEXT_DIRECTORY, readNpmPackages } from "./image-context.ts";

async function folder(files: Record<string, string>): Promise<string> {
  const directory = await makeTempDirectory("openeval-image-");
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(directory, path, ".."), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  return directory;
}

describe("the verification image's build context", () => {
  it("hashes every file by path, executable bit and content, ignoring the generated vendor/ folder", async () => {
    const directory = await folder({ Dockerfile: "FROM debian:bookworm-slim\n", "tools/run.sh": "echo\n" });
    const first = hashContext(await readContextFiles(directory));
    await writeFile(join(directory, "vendor-note.txt"), "x");
    const withFile = hashContext(await readContextFiles(directory));
    expect(withFile).not.toBe(first);
    await mkdir(join(directory, "vendor/bun"), { recursive: true });
    await writeFile(join(directory, "vendor/bun/bun"), "binary");
    expect(hashContext(await readContextFiles(directory))).toBe(withFile);
    await chmod(join(directory, "tools/run.sh"), 0o755);
    expect(hashContext(await readContextFiles(directory))).not.toBe(withFile);
  });

  it("needs a Dockerfile", async () => {
    const error = await readContextFiles(await folder({ "README.md": "x" })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContainerError);
    expect((error as ContainerError).code).toBe("OE_IMAGE_BUILD_FAILED");
    expect((error as ContainerError).message).toMatch(/^The image folder .* cannot be built: it has no Dockerfile/);
  });

  it("images/verification builds FROM a standard Debian image and pins its npm packages by integrity", async () => {
    const files = await readContextFiles(DEFAULT_CONTEXT_DIRECTORY);
    const dockerfile = await readFile(join(DEFAULT_CONTEXT_DIRECTORY, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^FROM debian:bookworm-slim$/m);
    expect(dockerfile).toMatch(/^USER 10001:10001$/m);
    const packages = readNpmPackages(files).packages.map((pkg) => pkg.name);
    expect(packages).toEqual(["@oven/bun-linux-x64", "playwright-core"]);
    expect(hashContext(files)).toMatch(/^[0-9a-f]{64}$/);
  });
});
