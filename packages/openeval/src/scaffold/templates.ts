// Where `openeval init` finds what it writes and the guides it points to: packages/openeval/templates/ (in a clone
// and in the packed tarball alike), and docs/writing-evals.md and llms.txt at the repository's root in a clone,
// inside the package in a tarball (`npm run pack` puts them there, as it does images/).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** packages/openeval in a clone; node_modules/openeval where a tarball is installed. */
const PACKAGE_DIRECTORY = fileURLToPath(new URL("../../", import.meta.url));

export const TEMPLATES_DIRECTORY = join(PACKAGE_DIRECTORY, "templates");

/** The kinds of eval `init --eval` writes: graded by a judge.ts, or by a judge.md rubric. */
export const EVAL_TEMPLATES = ["code", "rubric"] as const;
export type EvalTemplate = (typeof EVAL_TEMPLATES)[number];

export function evalTemplateDirectory(template: EvalTemplate): string {
  return join(TEMPLATES_DIRECTORY, "evals", template);
}

export const BENCHMARK_TEMPLATE_DIRECTORY = join(TEMPLATES_DIRECTORY, "benchmark");

/** The starter evals a new benchmark gets: one of each kind, under ids that say what the task is. */
export const STARTER_EVALS: Readonly<Record<string, EvalTemplate>> = {
  "fix-spelling": "code",
  "summarize-meeting": "rubric",
};

/** The eval-writing guide and the index for coding agents, as files on this machine. */
export function guideFiles(packageDirectory = PACKAGE_DIRECTORY): { guide: string; llms: string } {
  const root = existsSync(join(packageDirectory, "llms.txt")) ? packageDirectory : join(packageDirectory, "..", "..");
  return { guide: join(root, "docs", "writing-evals.md"), llms: join(root, "llms.txt") };
}
