// Where a judge's package import resolves: `openeval` itself to the harness that grades (wherever the eval lives),
// any other package from the importing file's folder. Never through Bun's auto-install, which fetches a package
// that no node_modules holds from the registry: resolving must work offline and never touch the network.
import { existsSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package a judge imports without installing it: the grading harness provides it. */
export const HARNESS_PACKAGE = "openeval";
const HARNESS = fileURLToPath(new URL(".", import.meta.url));

export function isHarnessImport(specifier: string): boolean {
  return specifier === HARNESS_PACKAGE || specifier.startsWith(`${HARNESS_PACKAGE}/`);
}

/**
 * The file `specifier` resolves to from `directory` (a builtin resolves to itself), or null when it does not.
 * @example resolveJudgeImport("openeval/scorers", "/elsewhere/evals/x") // → <harness>/src/judge/scorers/index.ts
 */
export function resolveJudgeImport(specifier: string, directory: string): string | null {
  if (isBuiltin(specifier)) return specifier;
  const from = isHarnessImport(specifier) ? HARNESS : directory;
  // Bun auto-installs exactly when no node_modules folder is at or above the importer; none there means the
  // package is not installed.
  if (!hasNodeModules(from)) return null;
  try {
    return Bun.resolveSync(specifier, from);
  } catch {
    return null;
  }
}

function hasNodeModules(directory: string): boolean {
  for (let folder = directory; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "node_modules"))) return true;
    if (folder === dirname(folder)) return false;
  }
}
