// Where the sandbox images' build contexts are (images/candidate/, images/verification/, images/environment/): at the repository's root in
// a clone, inside the package in a tarball (`npm run pack` puts them there).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** packages/openeval in a clone; node_modules/openeval where a tarball is installed. */
const PACKAGE_DIRECTORY = fileURLToPath(new URL("../../", import.meta.url));

/**
 * @example imageContextDirectory("candidate") // <clone>/images/candidate, or <project>/node_modules/openeval/images/candidate
 */
export function imageContextDirectory(
  image: "candidate" | "verification" | "environment",
  packageDirectory = PACKAGE_DIRECTORY,
): string {
  const packed = join(packageDirectory, "images");
  return join(existsSync(packed) ? packed : join(packageDirectory, "..", "..", "images"), image);
}
