// `openeval init [dir]`: write a working benchmark; `openeval init [dir] --eval <id> [--rubric]`: add one eval to it.
import { relative } from "node:path";
import { addEval, writeBenchmark, type Scaffolded } from "../scaffold/index.ts";
import { defineCommand } from "./commands.ts";
import { EXIT, UsageError } from "./errors.ts";

export const initCommand = defineCommand("init", {
  async run(flags, positionals) {
    if (positionals.length > 1) throw new UsageError("initFolders", { given: positionals });
    const directory = positionals[0] ?? ".";
    if (flags.rubric && flags.eval === undefined) throw new UsageError("rubricWithoutEval");
    if (flags.eval !== undefined) {
      const added = await addEval(directory, flags.eval, flags.rubric ? "rubric" : "code");
      console.log(`Added eval ${flags.eval} to the benchmark in ${added.directory}:`);
      printFiles(added);
      console.log(
        `\nNext: make evals/${flags.eval}/ your task (the prompt, the workspace, the judge, and controls that tell its criteria apart), ` +
          `then \`openeval validate${benchmarkFlag(added)}\` and \`openeval calibrate${benchmarkFlag(added)}\`.`,
      );
      printGuides(added);
      return EXIT.pass;
    }
    const written = await writeBenchmark(directory);
    console.log(`Wrote a benchmark to ${written.directory}:`);
    printFiles(written);
    const flag = benchmarkFlag(written);
    console.log(
      `\nNext, offline with scripted control models: \`openeval validate${flag}\`, \`openeval run${flag}\`, \`openeval calibrate${flag}\`. ` +
        "README.md says how to go on from there.",
    );
    printGuides(written);
    return EXIT.pass;
  },
});

function printFiles(scaffolded: Scaffolded): void {
  for (const file of scaffolded.written) console.log(`  ${file}`);
}

function printGuides({ guides }: Scaffolded): void {
  console.log(`How to write good evals: ${guides.guide}`);
  console.log(`For a coding agent writing evals: ${guides.llms}`);
}

/** The flag that points the next commands at the benchmark, when it is not the current folder. */
function benchmarkFlag({ directory }: Scaffolded): string {
  const path = relative(process.cwd(), directory);
  return path === "" ? "" : ` --benchmark ${path}`;
}
