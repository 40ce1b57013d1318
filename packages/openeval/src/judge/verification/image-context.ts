// The verification image's build context: images/verification/ (read and hashed by the sandbox stage) plus the
// vendored npm packages that npm-packages.json pins.
import { ContainerError, type ContextFile } from "../../sandbox/index.ts";
import { imageContextDirectory } from "../../util/images-directory.ts";
import { NpmPackagesManifestSchema, type NpmPackagesManifest } from "./npm-packages-manifest.ts";

export const DEFAULT_CONTEXT_DIRECTORY = imageContextDirectory("verification");

export const NPM_PACKAGES_FILE = "npm-packages.json";

export function readNpmPackages(files: ContextFile[]): NpmPackagesManifest {
  const file = files.find((candidate) => candidate.path === NPM_PACKAGES_FILE);
  if (!file) return { packages: [] };
  const parsed = NpmPackagesManifestSchema.safeParse(JSON.parse(new TextDecoder().decode(file.data)));
  if (!parsed.success)
    throw new ContainerError({
      code: "OE_IMAGE_BUILD_FAILED",
      folder: "images/verification/",
      problem: `${NPM_PACKAGES_FILE} is malformed: ${parsed.error.message}`,
    });
  return parsed.data;
}
